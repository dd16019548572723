// SPDX-License-Identifier: MIT
// The Java version of hot.lua: a method hot enough for C1 and C2, file
// and pipe I/O, a child.  args[0]: a directory.  Compiled at test time.
import java.nio.file.*;
import java.util.*;

public class Hot {
	static int mix(int n) {
		int h = 0;
		for (int i = 1; i <= n; i++)
			h = (h * 31 + i) % 1000003;
		return h;
	}

	public static void main(String[] args) throws Exception {
		Path dir = Paths.get(args[0]);
		int s = 0;
		for (int k = 0; k < 20000; k++)
			s = (s + mix(100)) % 1000003;
		System.out.println("hash " + s);

		List<String> lines = new ArrayList<>();
		for (int i = 1; i <= 100; i++)
			lines.add(i + " " + i * i);
		Path f = dir.resolve("data.txt");
		Files.write(f, lines);
		long sum = 0;
		for (String l : Files.readAllLines(f))
			sum += Long.parseLong(l.split(" ")[1]);
		System.out.println("sum " + sum);

		Process p = new ProcessBuilder("sh", "-c", "cat; exit 3").start();
		p.getOutputStream().write("through a pipe\n".getBytes());
		p.getOutputStream().close();
		String out = new String(p.getInputStream().readAllBytes()).trim();
		System.out.println("child " + p.waitFor() + " " + out);

		// the probe, a file the test made: read it, then remove it (the
		// test makes that one unlink fail: inject=unlink:...:when=1)
		Path probe = dir.resolve("probe");
		System.out.println("probe " + Files.readAllLines(probe).get(0));
		String removed = "ok";
		try {
			Files.delete(probe);
		} catch (NoSuchFileException e) {
			removed = "ENOENT";
		}
		System.out.println("remove " + removed);
		System.out.println("probe " + (Files.exists(probe) ? "still there" : "gone"));
	}
}
