// SPDX-License-Identifier: MIT
// Java: threads, a child process, file I/O.  Prints what it saw; the
// native run is the reference.
import java.nio.file.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.AtomicLong;

public class Mix {
	public static void main(String[] args) throws Exception {
		AtomicLong total = new AtomicLong();
		ExecutorService pool = Executors.newFixedThreadPool(4);
		for (int t = 0; t < 8; t++) {
			final int n = t;
			pool.submit(() -> {
				long s = 0;
				for (int i = 0; i < 3000000; i++)
					s = (s + (long) i * (n + 1)) % 1000003;
				total.addAndGet(s);
			});
		}
		pool.shutdown();
		pool.awaitTermination(1, TimeUnit.DAYS);
		System.out.println("threads " + total.get());

		Path p = Paths.get("java-file");
		Files.write(p, "line one\nline two\n".getBytes());
		System.out.println("file lines " + Files.readAllLines(p).size());
		Files.delete(p);

		Process c = new ProcessBuilder("sh", "-c", "echo from sh; exit 3").start();
		String out = new String(c.getInputStream().readAllBytes()).trim();
		System.out.println("child " + out + " " + c.waitFor());
		System.exit(5);
	}
}
