module sysgate.test/goprog

go 1.19
