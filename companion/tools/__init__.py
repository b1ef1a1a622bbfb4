"""Clients for tests and benchmarks, outside the service: a raw-socket SSE client
(`sse`), a crowd of hundreds of them (`crowd`) and the table benchmark (`bench`,
``python -m companion.tools.bench``)."""
