# SPDX-License-Identifier: MIT
# perl: fork with a pipe, system(), backticks, a signal handler, files,
# a regex and sort workload.  Prints what it saw; the native run is the
# reference.
use strict;
use warnings;
use POSIX ();

my %count;
$count{ length($_) % 7 }++ for map { "w" x ($_ % 13) } 1 .. 50000;
print "counts ", join(",", map { "$_=$count{$_}" } sort keys %count), "\n";

pipe(my $r, my $w) or die "pipe: $!";
my $pid = fork() // die "fork: $!";
if ($pid == 0) {
	close $r;
	print $w "child line $_\n" for 1 .. 3;
	close $w;
	POSIX::_exit(9);
}
close $w;
my @lines = <$r>;
waitpid($pid, 0);
print "pipe ", scalar(@lines), " lines, child exit ", $? >> 8, "\n";

print "system exit ", system("sh", "-c", "exit 4") >> 8, "\n";
my $up = `echo shout | tr a-z A-Z`;
print "backticks $up";

my $hits = 0;
$SIG{USR1} = sub { $hits++ };
for (1 .. 20) {
	system("true");
	kill 'USR1', $$;
}
print "USR1 handled $hits\n";

open(my $f, '>', 'perl-file') or die;
print $f "$_\n" for reverse 1 .. 1000;
close $f;
open($f, '<', 'perl-file') or die;
my @n = sort { $a <=> $b } <$f>;
close $f;
unlink 'perl-file';
print "sorted $n[0]";
exit 3;
