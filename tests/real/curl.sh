# SPDX-License-Identifier: MIT
# curl against python3's http.server on 127.0.0.1: a small file, a
# large one, a missing one; the server serves exactly these three.
set -e
mkdir www
seq 1 300000 >www/big
echo hello >www/small
cd www
python3 "$T/server.py" 3 &
server=$!
# a curl that fails must not leave the server waiting for its request
trap 'kill $server 2>/dev/null' EXIT
while [ ! -e port ]; do
	kill -0 $server 2>/dev/null || { echo "server died"; exit 1; }
	sleep 0.1
done
url=http://127.0.0.1:$(cat port)
cd ..
curl -sS "$url/small"
curl -sS "$url/big" | sha256sum
curl -sS -o /dev/null -w '%{http_code}\n' "$url/missing"
wait $server
echo "server exit $?"
trap - EXIT
