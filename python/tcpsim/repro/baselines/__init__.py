"""Validation experiments of the modern congestion controls and queue disciplines (issue 25):
each algorithm against the claim of the paper or RFC that defines it."""
