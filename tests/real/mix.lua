-- SPDX-License-Identifier: MIT
-- LuaJIT: a hot loop the JIT compiles, a pipe from a child (io.popen),
-- os.execute with an exit status, file I/O.  Prints what it saw; the
-- native run is the reference.
local s = 0
for i = 1, 3000000 do
	s = (s + i * 7) % 1000003
end
print("loop", s, "jit", (jit and jit.status()) and "on" or "off")

local p = io.popen("echo from sh; echo second | tr a-z A-Z")
print("popen", (p:read("*a"):gsub("\n", " ")))
p:close()
print("execute", os.execute("exit 3"))

local f = assert(io.open("lua-file", "w"))
for i = 1, 1000 do f:write(i, "\n") end
f:close()
local n = 0
for _ in io.lines("lua-file") do n = n + 1 end
os.remove("lua-file")
print("lines", n)
os.exit(6)
