"""Validation experiments of the modern algorithms (issue 25): each checks one behaviour the
literature reports for its algorithm, on a set-up and tolerance chosen from that literature
before running."""
