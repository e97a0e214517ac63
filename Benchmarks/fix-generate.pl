#!/usr/bin/env perl
# Generates the inputs of Benchmarks/fix.sh: one large ASS script and a folder of small subtitle files.
#   fix-generate.pl big OUT.ass EVENTS      an ASS with EVENTS dialogue lines (200,000 is about 20 MB)
#   fix-generate.pl small DIR COUNT         COUNT small files, half ASS, half SRT, in 50 subfolders
use strict;
use warnings;
use utf8;
binmode(STDOUT, ':utf8');

my @fonts = ('微软雅黑', '方正准圆_GBK', 'SimHei', '@微软雅黑', 'Microsoft YaHei', '华文楷体', 'MS Gothic', 'Arial');
my @words = ('车站', '雨停了', '你还要等吗', '回家的路', '第一章', '明日の朝', 'ひらがな', 'the night train', '海风吹过', '港の朝');

sub header {
    my ($fh) = @_;
    print $fh "[Script Info]\r\nTitle: subfix benchmark\r\nScriptType: v4.00+\r\nPlayResX: 1920\r\nPlayResY: 1080\r\n\r\n";
    print $fh "[V4+ Styles]\r\nFormat: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding\r\n";
    for my $i (0 .. $#fonts) {
        print $fh "Style: S$i,$fonts[$i],60,&H00FFFFFF,&H000000FF,&H00000000,&H80000000,0,0,0,0,100,100,0,0,1,2,1,2,40,40,40,134\r\n";
    }
    print $fh "\r\n[Events]\r\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\r\n";
}

sub time_of {
    my ($cs) = @_;
    return sprintf('%d:%02d:%02d.%02d', $cs / 360000, ($cs / 6000) % 60, ($cs / 100) % 60, $cs % 100);
}

sub event {
    my ($i) = @_;
    my $font = $fonts[$i % @fonts];
    my $text;
    my $kind = $i % 4;
    my ($a, $b) = ($words[$i % @words], $words[($i * 7) % @words]);
    if ($kind == 0) {
        $text = $a . '，' . $b . '。';
    } elsif ($kind == 1) {
        $text = '{\\fn' . $font . '\\fs58}' . $a . '{\\i1}' . $b . '{\\i0}';
    } elsif ($kind == 2) {
        $text = '{\\pos(960,100)\\t(0,500,\\fn' . $font . '\\fs70)}' . $a . ', ' . $b;
    } else {
        $text = '{\\b1\\fn' . $font . '}' . $a . '{\\fn}\\N' . $b . ' {\\fnSimSun\\c&H00FFFF&}!';
    }
    my $start = $i * 150;
    return sprintf("Dialogue: 0,%s,%s,S%d,,0,0,0,,%s\r\n", time_of($start), time_of($start + 140), $i % @fonts, $text);
}

my ($mode, $out, $count) = @ARGV;
die "usage: $0 big OUT.ass EVENTS | small DIR COUNT\n" unless $mode && $out && $count;
if ($mode eq 'big') {
    open(my $fh, '>:utf8', $out) or die "$out: $!\n";
    header($fh);
    print $fh event($_) for 0 .. $count - 1;
    close($fh);
} else {
    for my $n (0 .. $count - 1) {
        my $dir = sprintf('%s/%02d', $out, $n % 50);
        mkdir $out; mkdir $dir;
        if ($n % 2 == 0) {
            open(my $fh, '>:utf8', "$dir/episode$n.ass") or die "$dir: $!\n";
            header($fh);
            print $fh event($n * 40 + $_) for 0 .. 39;
            close($fh);
        } else {
            open(my $fh, '>:utf8', "$dir/episode$n.srt") or die "$dir: $!\n";
            for my $c (1 .. 40) {
                my $font = $fonts[($n + $c) % @fonts];
                printf $fh "%d\n00:00:%02d,000 --> 00:00:%02d,500\n<font face=\"%s\" size=\"20\">%s</font>\n\n",
                    $c, $c, $c, $font, $words[$c % @words];
            }
            close($fh);
        }
    }
}
