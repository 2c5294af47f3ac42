"""The HTML report of a reproduction: a static site written from what ``tcpsim repro --out DIR``
left in DIR (each experiment's ``<id>.json`` and ``<id>.svg``), readable from ``file://``
with no server and nothing fetched from the network.

``write_report(results_dir)`` writes ``index.html`` (papers and experiments with their claim
and number status), one page per experiment (figure, claims with evidence, numbers against the
paper, alternative readings, notes, run metadata) and a copy of each figure and report, so the
site can be moved or archived on its own.
"""

from tcpsim.report.load import ReportError, load_reports
from tcpsim.report.render import write_report

__all__ = ["ReportError", "load_reports", "write_report"]
