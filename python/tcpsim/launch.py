"""The ``tcpsim`` console script's entry point. The command line (typer and the scenario
models) takes over a tenth of a second to import, so a plain ``tcpsim run FILE --json`` is
served without typer (`tcpsim.fast_run`; without the scenario models too if the file was run
before); everything else goes to the full command line. Both are imported here, inside the handler, so that a Ctrl-C
landing while they load (or while the fast path runs) ends like any other interrupt (`error:
interrupted`, exit 130) rather than in a traceback. Only this module and the package's own
light ``__init__`` load before the handler is in place."""

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
        from tcpsim import fast_run

        if (request := fast_run.parse_request(sys.argv[1:])) is not None:
            if (status := fast_run.serve(request)) is not None:
                sys.exit(status)
        from tcpsim.cli import main as run_command_line
    except KeyboardInterrupt:
        sys.stderr.write("error: interrupted\n")
        sys.exit(EXIT_INTERRUPTED)
    run_command_line()
