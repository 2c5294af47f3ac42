"""The ``tcpsim`` console script's entry point. The command line (typer and the scenario
models) takes a few hundred milliseconds to import; it is imported here, inside the handler,
so that a Ctrl-C landing while it loads ends like any other interrupt (`error: interrupted`,
exit 130) rather than in a traceback. Only this module and the package's own light
``__init__`` load before the handler is in place."""

import gc
import sys

EXIT_INTERRUPTED = 130
"""`tcpsim.cli.errors.EXIT_INTERRUPTED`, repeated: importing that module loads the whole CLI."""


def main() -> None:
    # Loading the command line makes objects that live as long as the process (modules, classes,
    # typer's commands, pydantic's schemas): the cyclic collector's passes over them find nothing
    # to free. It is off until the root options are read (`tcpsim.cli.root`).
    gc.disable()
    try:
        from tcpsim.cli import main as run_command_line
    except KeyboardInterrupt:
        sys.stderr.write("error: interrupted\n")
        sys.exit(EXIT_INTERRUPTED)
    run_command_line()
