# SPDX-License-Identifier: MIT
# server.py N: python3's http.server on 127.0.0.1, on a free port the
# kernel picks (written to ./port), serving the current directory for
# exactly N requests, then exiting.
import http.server
import os
import sys


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


srv = http.server.HTTPServer(("127.0.0.1", 0), Quiet)
with open("port.tmp", "w") as f:
    f.write(str(srv.server_address[1]))
os.rename("port.tmp", "port")
for _ in range(int(sys.argv[1])):
    srv.handle_request()
