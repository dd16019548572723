-- SPDX-License-Identifier: MIT
-- A LuaJIT program that really compiles (hot loops become traces of
-- machine code), does file and pipe I/O and starts children.  Its output
-- depends only on what its system calls return.  arg[1]: a directory.
local dir = arg[1]
local jutil = require("jit.util")

local function mix(n)
  local h = 0
  for i = 1, n do h = (h * 31 + i) % 1000003 end
  return h
end
local s = 0
for _ = 1, 200 do s = (s + mix(1000)) % 1000003 end
print("hash", s)
-- trace 1 exists once the loop above was compiled to machine code
print("jit compiled", jit.status() and jutil.traceinfo(1) ~= nil)

local f = assert(io.open(dir .. "/data.txt", "w"))
for i = 1, 100 do f:write(i, " ", i * i, "\n") end
f:close()
local sum = 0
for line in io.lines(dir .. "/data.txt") do
  sum = sum + tonumber(line:match(" (%d+)"))
end
print("sum", sum)

-- a child reading our file, its answer through a pipe
local p = io.popen("wc -l < " .. dir .. "/data.txt")
print("lines", p:read("*n"))
p:close()
-- a child reading from a pipe we write
p = io.popen("cat > " .. dir .. "/copy.txt", "w")
p:write("through a pipe\n")
p:close()
print("copy", io.open(dir .. "/copy.txt"):read("*l"))
print("child", os.execute("exit 3"))

-- the probe, a file the test made: read it, then remove it (the test
-- makes that one unlink fail: -e inject=unlink:error=ENOENT:when=1)
print("probe", io.open(dir .. "/probe"):read("*l"))
local ok, _, errno = os.remove(dir .. "/probe")
print("remove", ok and "ok" or (errno == 2 and "ENOENT" or tostring(errno)))
print("probe", io.open(dir .. "/probe") and "still there" or "gone")
