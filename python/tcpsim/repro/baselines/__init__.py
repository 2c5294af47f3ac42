"""Validation experiments of the algorithms added without a paper of their own to reproduce
(issue 25): each checks a claim of the algorithm's RFC or defining paper (`validation.<name>`)."""
