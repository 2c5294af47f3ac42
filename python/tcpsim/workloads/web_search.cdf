# Web-search flow sizes: Alizadeh et al., "Data Center TCP (DCTCP)", SIGCOMM 2010, Fig. 4
# (query and background flows of a production search cluster), in the form DC transport
# simulators use: HPCC (Li et al., SIGCOMM 2019), alibaba-edu/High-Precision-Congestion-Control
# traffic_gen/WebSearch_distribution.txt (probabilities in percent), and the same points in
# PIAS's generator (Bai et al., NSDI 2015), HKUST-SING/TrafficGenerator conf/DCTCP_CDF.txt.
# Columns: flow size in bytes, cumulative probability. Sampled by inverse transform with linear
# interpolation between points; mean of that distribution 1 711 250 B.
0 0
10000 0.15
20000 0.2
30000 0.3
50000 0.4
80000 0.53
200000 0.6
1000000 0.7
2000000 0.8
5000000 0.9
10000000 0.97
30000000 1
