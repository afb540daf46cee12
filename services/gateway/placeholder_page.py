"""The page at `/` until the browser client is built: what this is and how to play."""

from __future__ import annotations

from aiohttp import web

PLACEHOLDER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Photo Finish</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}
code{background:#eee;padding:.1rem .3rem;border-radius:.2rem}</style></head>
<body><h1>Photo Finish</h1>
<p>A fair-time arena: <b>Spit</b> and <b>Spectacular Bid</b>, judged by the server's clock.</p>
<p>The browser client is not built yet. Play from a terminal:</p>
<p><code>.venv/bin/python -m clients.cli --url {url}</code></p>
<p>The public API is gRPC-web at this address (<code>photofinish.client.v1.Arena</code>).</p>
</body></html>
"""


async def placeholder(request: web.Request) -> web.Response:
    url = f"{request.scheme}://{request.host}"
    return web.Response(text=PLACEHOLDER.replace("{url}", url), content_type="text/html")
