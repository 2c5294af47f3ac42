"""Analytical models of TCP behaviour, in pure Python (no dependency on the compiled core).

- `tcpsim.models.moller`: hybrid fluid model of one TCP New Reno and one TCP Westwood+ flow
  sharing a drop-tail bottleneck (Möller, Barakat, Avrachenkov & Altman, "Inter-protocol
  fairness between TCP New Reno and TCP Westwood+", Secs. II–III), with its closed form,
  a direct numerical integration of the hybrid system, and the square-root formulas of
  eq. (34)–(35).
"""
