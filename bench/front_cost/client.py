"""T keep-alive clients, N requests each, alternating GET and a small JSON POST."""

import http.client
import json
import sys
import threading
import time

port, n, t = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])


def run():
    c = http.client.HTTPConnection("127.0.0.1", port)
    body = json.dumps({"move": {"die": 3}, "expected_version": 4})
    for i in range(n):
        if i % 2:
            c.request("POST", "/ping", body, {"Content-Type": "application/json"})
        else:
            c.request("GET", "/ping")
        c.getresponse().read()


threads = [threading.Thread(target=run) for _ in range(t)]
t0 = time.time()
for x in threads:
    x.start()
for x in threads:
    x.join()
print(f"{n * t / (time.time() - t0):.0f} req/s")
