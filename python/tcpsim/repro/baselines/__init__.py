"""Validation experiments of the algorithms added beyond the five papers (issue 25): each checks
one behaviour its RFC or paper states, in a set-up and with a tolerance chosen from that
literature before running."""
