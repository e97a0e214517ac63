#!/usr/bin/env perl
# Generates the search benchmark corpus: LINES dialogue lines (half Chinese, a quarter Japanese, a quarter
# English, some mixed and full-width) as SRT files of 1,000 cues under DIR, plus DIR.txt with one line of text
# per cue (the raw text, for size and for the trigram peer). Deterministic (fixed seed).
# Usage: perl search-generate.pl DIR LINES
use strict;
use warnings;
use utf8;
binmode STDOUT, ':utf8';
my ($dir, $lines) = @ARGV;
die "usage: $0 DIR LINES\n" unless $dir && $lines;
srand(20261129);

# Characters by frequency: a Zipf-like pool where the first characters are picked far more often.
sub zipf_pool {
    my ($chars, $size) = @_;
    my @pool;
    my $n = scalar @$chars;
    for my $i (0 .. $n - 1) {
        my $copies = int($size / ($i + 1) / 8) + 1;
        push @pool, ($chars->[$i]) x $copies;
    }
    return \@pool;
}
my $common = '的一是不了人我在有他这为之大来以个中上们到说国和地也子时道出而要于就下得可你年生自会那后能对着事其里所去行过家十用发天如然作方成者多日都三小军二无同么经法当起与好看学进种将还分此心前面又定见只主没公从知头体明很外因被民本己手意回身把最题高马已老没电视机话';
my @han = split //, $common;
for my $cp (0x4E00 .. 0x4E00 + 2500) { push @han, chr($cp) }
my $han_pool = zipf_pool(\@han, 40000);
my @hira = split //, 'のにはをたがでてとしれさいるかなあうえおくけこすせそつねひふへほまみむめもやゆよらりろわん';
my $hira_pool = zipf_pool(\@hira, 4000);
my @kata = map { join '', map { chr(0x30A2 + int(rand(80))) } 1 .. (2 + int(rand(3))) } 1 .. 300;
my @kanji = @han[0 .. 800];
my @syll = qw(ba be bi bo ca co da de di do fa fe fi ga go ha he hi ho ja jo ka ke ki ko la le li lo ma me mi mo
    na ne ni no pa pe pi po ra re ri ro sa se si so ta te ti to va ve vi wa we wi ya yo za ze);
my @common_en = qw(the you i to a and it is that what of in we me this he for my on have your do was be no not
    know are just can get all so with but there go here right they like well now she tram ticket door night);
my @en = (@common_en) x 20;
for (1 .. 3000) { push @en, join '', map { $syll[rand @syll] } 1 .. (1 + int(rand(3))) }

sub chinese {
    my $n = 4 + int(rand(16));
    my $s = '';
    for (1 .. $n) {
        $s .= $han_pool->[rand @$han_pool];
        my $r = rand();
        $s .= '，' if $r < 0.06;
        $s .= ' ' if $r >= 0.06 && $r < 0.08;
    }
    return $s . (rand() < 0.5 ? '。' : '！');
}
sub japanese {
    my $s = '';
    for (1 .. 3 + int(rand(6))) {
        my $r = rand();
        if ($r < 0.35) { $s .= $kanji[rand @kanji] . ($r < 0.15 ? $kanji[rand @kanji] : '') }
        elsif ($r < 0.5) { $s .= $kata[rand @kata] }
        $s .= $hira_pool->[rand @$hira_pool] for 1 .. 1 + int(rand(3));
    }
    return $s . (rand() < 0.5 ? '。' : '？');
}
sub english {
    my @w = map { $en[rand @en] } 1 .. (3 + int(rand(9)));
    $w[0] = ucfirst $w[0];
    return join(' ', @w) . (rand() < 0.7 ? '.' : '?');
}
sub fullwidth { my $s = shift; $s =~ tr/A-Za-z0-9/Ａ-Ｚａ-ｚ０-９/; return $s }

mkdir $dir unless -d $dir;
open my $all, '>:utf8', "$dir.txt" or die "$dir.txt: $!";
my $per_file = 1000;
my $files = int(($lines + $per_file - 1) / $per_file);
my $written = 0;
for my $f (1 .. $files) {
    my $sub = sprintf '%s/season%02d', $dir, int(($f - 1) / 100) + 1;
    mkdir $sub unless -d $sub;
    my $lang = ('zh', 'zh', 'ja', 'en')[$f % 4];
    my $path = sprintf '%s/episode%04d.%s.srt', $sub, $f, $lang;
    open my $out, '>:utf8', $path or die "$path: $!";
    for my $i (1 .. $per_file) {
        last if $written >= $lines;
        my $r = rand();
        my $text = $lang eq 'zh' ? chinese() : $lang eq 'ja' ? japanese() : english();
        if ($r < 0.05) { $text .= ' ' . english() }             # mixed scripts
        elsif ($r < 0.07) { $text = fullwidth(english()) . chinese() }  # full-width forms
        elsif ($r < 0.12) { $text .= "\n" . ($lang eq 'en' ? english() : chinese()) }
        my $ms = $i * 2000;
        my $t = sub { my $v = shift; sprintf '%02d:%02d:%02d,%03d', $v / 3600000, $v / 60000 % 60, $v / 1000 % 60, $v % 1000 };
        print $out "$i\n", $t->($ms), ' --> ', $t->($ms + 1500), "\n$text\n\n";
        (my $flat = $text) =~ s/\n/ /g;
        print $all "$flat\n";
        $written++;
    }
    close $out;
}
close $all;
