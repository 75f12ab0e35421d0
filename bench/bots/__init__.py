"""Bots the benchmarks run as real processes. They are run by path, so their folder comes first
on ``sys.path``: nothing here may share a name with the project's packages."""
