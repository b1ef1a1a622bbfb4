"""Benchmarks, each a command that prints its numbers: the engine against python-chess
(`engine`), the event store (`store`), the reconciler (`reconcile`), the reader hub
(`hub`, `hub_firmware`), the served app (`service`, `siege`) and their clients (`sse`,
`crowd`). They use the product; the product never imports them."""
