"""``python -m tcpsim``: the ``tcpsim`` command, for environments without the console script."""

from tcpsim.launch import main

main()
