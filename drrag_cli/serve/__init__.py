"""Warm drrag for other programs: the shared :class:`~drrag_cli.serve.service.Service`,
the HTTP API (`drrag serve`), its client (`drrag ask --server`) and the MCP server."""
