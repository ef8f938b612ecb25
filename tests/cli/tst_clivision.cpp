// The multimodal and 2-D families on the command line, as scripts meet them: `posenc describe`
// reports rope_deltas as get_rope_index returns it (the Qwen2.5-VL docstring's video in both
// transformers eras), `posenc table` writes the ids and the 2-D tables, and each bad value named in
// the families' contract exits 2 with one line naming its flag and range.
#include "CliRun.h"
#include "support/TestMain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

namespace tst_clivision {
using namespace Qt::StringLiterals;
using namespace CliRun;

class TestCliVision : public QObject
{
    Q_OBJECT

private slots:
    void describeReportsRopeDeltas_data();
    void describeReportsRopeDeltas();
    void describeNamesFluxTextIds();
    void describeHelpListsEveryKey();
    void tablesAreWritten_data();
    void tablesAreWritten();
    void badValuesExitTwo_data();
    void badValuesExitTwo();
    void theFamilyIsInferred();
    void configsChooseMrope_data();
    void configsChooseMrope();
    void anotherGridIsNamed();
};

void TestCliVision::describeReportsRopeDeltas_data()
{
    QTest::addColumn<QString>("era");
    QTest::addColumn<int>("delta");
    QTest::addColumn<int>("next");
    // video:3x4x4@2 at 25 tokens a second, then 5 text tokens: ids 0..100 and text 101..105 (4.x),
    // or text 2..6 (5.x); either way max id 105 or 100, and 17 tokens.
    QTest::newRow("v4") << u"v4"_s << 89 << 106;
    QTest::newRow("v5") << u"v5"_s << 84 << 101;
}

void TestCliVision::describeReportsRopeDeltas()
{
    QFETCH(QString, era);
    QFETCH(int, delta);
    QFETCH(int, next);
    const Run run
        = posenc({u"describe"_s, u"--json"_s, u"--encoding"_s, u"mrope"_s, u"--vision-positions"_s, u"qwen2.5-vl"_s,
                  u"--mrope-era"_s, era, u"--tokens-per-second"_s, u"25"_s, u"--prompt"_s, u"video:3x4x4@2,text:5"_s});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QJsonObject json = QJsonDocument::fromJson(run.out.toUtf8()).object();
    QCOMPARE(json.value(u"rope_deltas"_s).toInt(), delta);
    QCOMPARE(json.value(u"next_position"_s).toInt(), next);
    QCOMPARE(json.value(u"tokens"_s).toInt(), 17);
    QCOMPARE(json.value(u"pairs_w"_s).toInt(), 24);
    QCOMPARE(json.value(u"fastest_pair_w"_s).toInt(), 40);
    QCOMPARE(json.value(u"collapsed_video_grids"_s).toInt(), 0);
}

void TestCliVision::describeNamesFluxTextIds()
{
    // FLUX.1's text tokens all sit at (0, 0, 0), patch (0, 0)'s rotation; FLUX.2's on axis 3.
    const QStringList flux = {u"describe"_s,        u"--json"_s, u"--encoding"_s, u"rope-2d"_s,
                              u"--rope-2d-style"_s, u"flux"_s,   u"--head-dim"_s, u"128"_s};
    const Run one = posenc(flux + QStringList {u"--axes-dim"_s, u"16,56,56"_s});
    QVERIFY2(one.exitCode == 0, qPrintable(one.err));
    const QJsonObject first = QJsonDocument::fromJson(one.out.toUtf8()).object();
    QVERIFY(first.value(u"text_ids"_s).toString().startsWith(u"(0, 0, 0): unrotated"_s));
    QCOMPARE(first.value(u"pairs_row"_s).toInt(), 28);
    QCOMPARE(first.value(u"pairs_constant"_s).toInt(), 8);
    const Run two = posenc(flux + QStringList {u"--axes-dim"_s, u"32,32,32,32"_s, u"--rope-theta"_s, u"2000"_s});
    QVERIFY2(two.exitCode == 0, qPrintable(two.err));
    const QJsonObject second = QJsonDocument::fromJson(two.out.toUtf8()).object();
    QVERIFY(second.value(u"text_ids"_s).toString().startsWith(u"(0, 0, 0, l)"_s));
    QCOMPARE(second.value(u"pairs_constant"_s).toInt(), 32);
    // A video of 0.083 s a grid at 2 tokens a second: 11 of its 14 grids share the t id before.
    const Run truncated = posenc({u"describe"_s, u"--json"_s, u"--encoding"_s, u"mrope"_s, u"--vision-positions"_s,
                                  u"qwen2.5-vl"_s, u"--prompt"_s, u"video:14x2x2@0.083"_s});
    QVERIFY2(truncated.exitCode == 0, qPrintable(truncated.err));
    QCOMPARE(QJsonDocument::fromJson(truncated.out.toUtf8()).object().value(u"collapsed_video_grids"_s).toInt(), 11);
}

void TestCliVision::describeHelpListsEveryKey()
{
    // Every key describe prints for the three families is in `posenc describe --help`.
    const Run help = posenc({u"describe"_s, u"--help"_s});
    QCOMPARE(help.exitCode, 0);
    for (const QStringList &family :
         {QStringList {u"--encoding"_s, u"mrope"_s}, QStringList {u"--encoding"_s, u"rope-2d"_s},
          QStringList {u"--encoding"_s, u"sincos-2d"_s}}) {
        const Run run = posenc(QStringList {u"describe"_s, u"--json"_s} + family);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const QJsonObject json = QJsonDocument::fromJson(run.out.toUtf8()).object();
        QVERIFY(json.size() >= 8);
        for (const QString &key : json.keys())
            QVERIFY2(help.out.contains(key), qPrintable(key));
    }
}

void TestCliVision::tablesAreWritten_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("firstLines");
    QTest::newRow("mrope-positions")
        << QStringList {u"mrope-positions"_s, u"--encoding"_s, u"mrope"_s, u"--prompt"_s,
                        u"text:2,image:1x4x4,text:1"_s}
        << u"kind,t,h,w\n0,0,0,0\n0,1,1,1\n1,2,2,2\n1,2,2,3\n1,2,3,2\n1,2,3,3\n0,4,4,4\n"_s;
    QTest::newRow("rope2d-frequencies") << QStringList {u"rope2d-frequencies"_s,
                                                        u"--encoding"_s,
                                                        u"rope-2d"_s,
                                                        u"--rope-2d-style"_s,
                                                        u"axial"_s,
                                                        u"--head-dim"_s,
                                                        u"8"_s,
                                                        u"--rope-theta"_s,
                                                        u"100"_s}
                                        << u"pair,axis,inv_freq\n0,2,1\n1,2,0.1\n2,1,1\n3,1,0.1\n"_s;
}

void TestCliVision::tablesAreWritten()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, firstLines);
    const Run run
        = posenc(QStringList {u"table"_s} + arguments + QStringList {u"-o"_s, u"-"_s, u"--format"_s, u"csv"_s});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QCOMPARE(run.out, firstLines);
}

void TestCliVision::badValuesExitTwo_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("line");
    const QStringList mrope = {u"--encoding"_s, u"mrope"_s};
    QTest::newRow("a section that does not sum")
        << mrope + QStringList {u"--mrope-section"_s, u"16,24,16"_s}
        << u"--mrope-section: must be t,h,w summing to the 64 rotary pairs (rotary_dim / 2); they sum to 56; got "
           "'16,24,16'"_s;
    QTest::newRow("a prompt of an unknown kind")
        << mrope + QStringList {u"--prompt"_s, u"text:3,audio:4"_s}
        << u"--prompt: 'audio:4': unknown kind 'audio' (text, image or video); it must be segments text:N, "
           "image:TxHxW or video:TxHxW[@SECONDS] (or image:HxWpx, video:HxWpx@Ds[@Ffps] in pixels and seconds) "
           "separated by commas; got 'text:3,audio:4'"_s;
    QTest::newRow("an image not divisible by the merge size")
        << mrope + QStringList {u"--prompt"_s, u"image:1x5x4"_s}
        << u"--prompt: the image grid 1x5x4 is not divisible by spatial-merge-size 2 in height and width; it must be "
           "segments text:N, image:TxHxW or video:TxHxW[@SECONDS] (or image:HxWpx, video:HxWpx@Ds[@Ffps] in pixels "
           "and seconds) separated by commas; got 'image:1x5x4'"_s;
    // The prompt's check divided by a merge size of 0 before that row's own check spoke.
    QTest::newRow("a merge size of 0") << mrope + QStringList {u"--spatial-merge-size"_s, u"0"_s}
                                       << u"--spatial-merge-size: must be an integer in [1, 64]; got 0"_s;
    QTest::newRow("a grid of 0") << QStringList {u"--encoding"_s, u"rope-2d"_s, u"--grid"_s, u"0,16"_s}
                                 << u"--grid: must be H,W: two integers in [1, 16384], H·W at most 16777216; got "
                                    "'0,16'"_s;
    QTest::newRow("a grid of 0 for sincos-2d") << QStringList {u"--encoding"_s, u"sincos-2d"_s, u"--grid"_s, u"4,0"_s}
                                               << u"--grid: must be H,W: two integers in [1, 16384], H·W at most "
                                                  "16777216; got '4,0'"_s;
}

void TestCliVision::badValuesExitTwo()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, line);
    QTemporaryDir dir;
    const QString out = dir.filePath(u"t.npy"_s);
    const Run run = posenc(QStringList {u"describe"_s} + arguments);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.startsWith(u"posenc describe: "_s + line), qPrintable(run.err));
    QCOMPARE(run.err.count(u'\n'), 1);
    QVERIFY(run.out.isEmpty());
    const Run table = posenc(QStringList {u"table"_s, u"pe"_s, u"-o"_s, out} + arguments);
    QCOMPARE(table.exitCode, 2);
    QVERIFY(!QFile::exists(out));
}

void TestCliVision::theFamilyIsInferred()
{
    // Without --encoding: the prompt is M-RoPE's, rope2d-cos 2-D RoPE's even with the grid it
    // shares with the 2-D sin-cos table, which the grid alone chooses.
    const Run mrope = posenc({u"describe"_s, u"--json"_s, u"--prompt"_s, u"text:4,image:1x2x2"_s});
    QVERIFY2(mrope.exitCode == 0, qPrintable(mrope.err));
    QCOMPARE(QJsonDocument::fromJson(mrope.out.toUtf8()).object().value(u"tokens"_s).toInt(), 5);
    const Run rope2d = posenc({u"table"_s, u"rope2d-cos"_s, u"-o"_s, u"-"_s, u"--format"_s, u"csv"_s, u"--grid"_s,
                               u"2,2"_s, u"--head-dim"_s, u"8"_s, u"--patch"_s, u"0,0"_s});
    QVERIFY2(rope2d.exitCode == 0, qPrintable(rope2d.err));
    QCOMPARE(rope2d.out.count(u'\n'), 5); // the header and 4 patches
    const Run sincos = posenc({u"describe"_s, u"--json"_s, u"--grid"_s, u"32,32"_s});
    QVERIFY2(sincos.exitCode == 0, qPrintable(sincos.err));
    QCOMPARE(QJsonDocument::fromJson(sincos.out.toUtf8()).object().value(u"tokens"_s).toInt(), 1024);
}

void TestCliVision::configsChooseMrope_data()
{
    QTest::addColumn<QString>("config");
    QTest::addColumn<QStringList>("extra");
    QTest::addColumn<QJsonObject>("want");
    const QString dir = QStringLiteral(POSENC_CONFIGS) + u'/';
    // Each model's code as HF reads it (MropeConfig): chunked sections for Qwen2-VL and
    // Qwen2.5-VL, interleaved for Qwen3-VL (θ 5e6 in text_config), the vision config's merge size
    // and Qwen2.5-VL's tokens_per_second, get_rope_index of the 4.x era these configs were
    // written in (4.41.2, 4.57.0.dev0, or no version).
    QTest::newRow("Qwen2-VL-7B") << dir + u"Qwen2-VL-7B-Instruct.json"_s << QStringList()
                                 << QJsonObject {{u"mrope_section"_s, QJsonArray {16, 24, 24}},
                                                 {u"pairs_w"_s, 24},
                                                 {u"fastest_pair_w"_s, 40},
                                                 {u"vision_positions"_s, u"qwen2-vl"_s},
                                                 {u"mrope_era"_s, u"v4"_s}};
    QTest::newRow("Qwen2.5-VL-7B") << dir + u"Qwen2.5-VL-7B-Instruct.json"_s << QStringList()
                                   << QJsonObject {{u"mrope_section"_s, QJsonArray {16, 24, 24}},
                                                   {u"fastest_pair_h"_s, 16},
                                                   {u"vision_positions"_s, u"qwen2.5-vl"_s}};
    QTest::newRow("Qwen3-VL-8B") << dir + u"Qwen3-VL-8B-Instruct.json"_s << QStringList()
                                 << QJsonObject {{u"mrope_section"_s, QJsonArray {24, 20, 20}},
                                                 {u"pairs_t"_s, 24},
                                                 {u"pairs_h"_s, 20},
                                                 {u"pairs_w"_s, 20},
                                                 {u"fastest_pair_w"_s, 2},
                                                 {u"section_honoured"_s, true},
                                                 {u"vision_positions"_s, u"qwen3-vl"_s},
                                                 {u"mrope_era"_s, u"v4"_s}};
    // The docstring's video at Qwen2.5-VL-7B's 2 tokens a second: t ids 0, 4, 8 and the text after
    // at the largest id + 1 (4.x, the config's era); a flag overrides the config: 5.x puts the text
    // at the video's start + max(h, w) / 2 = 2, beneath the largest id 8.
    QTest::newRow("Qwen2.5-VL-7B, a prompt")
        << dir + u"Qwen2.5-VL-7B-Instruct.json"_s << QStringList {u"--prompt"_s, u"video:3x4x4@2,text:1"_s}
        << QJsonObject {{u"max_position_id"_s, 9}, {u"tokens"_s, 13}, {u"mrope_era"_s, u"v4"_s}};
    QTest::newRow("Qwen2.5-VL-7B, a prompt, --mrope-era v5")
        << dir + u"Qwen2.5-VL-7B-Instruct.json"_s
        << QStringList {u"--prompt"_s, u"video:3x4x4@2,text:1"_s, u"--mrope-era"_s, u"v5"_s}
        << QJsonObject {{u"max_position_id"_s, 8}, {u"tokens"_s, 13}, {u"mrope_era"_s, u"v5"_s}};
}

void TestCliVision::configsChooseMrope()
{
    QFETCH(QString, config);
    QFETCH(QStringList, extra);
    QFETCH(QJsonObject, want);
    const Run run = posenc(QStringList {u"describe"_s, u"--json"_s, u"--config"_s, config} + extra);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QJsonObject got = QJsonDocument::fromJson(run.out.toUtf8()).object();
    for (auto it = want.begin(); it != want.end(); ++it)
        QVERIFY2(got.value(it.key()) == it.value(), qPrintable(it.key() + u": "_s + run.out));
}

// A 2-D RoPE table of a 6 x 10 grid declared 8 x 8 (of other rows: a square grid assumed, as
// hpcaitech/Open-Sora#638's): the grid mistake, both grids said (was refused, exit 2, "the parameters
// give a table of 64 x 64"); a table of 61 rows, which no grid of the declared rotation has, still
// refused with both shapes.
void TestCliVision::anotherGridIsNamed()
{
    QTemporaryDir dir;
    const QString file = dir.filePath(u"r610.npy"_s);
    const Run made = posenc({u"table"_s, u"rope2d-cos"_s, u"--grid"_s, u"6,10"_s, u"--head-dim"_s, u"64"_s, u"-o"_s, file});
    QVERIFY2(made.exitCode == 0, qPrintable(made.err));
    const QStringList declared {u"check"_s, file, u"--json"_s, u"--expect"_s, u"rope-2d"_s, u"--head-dim"_s, u"64"_s};
    const Run right = posenc(declared + QStringList {u"--grid"_s, u"6,10"_s});
    QVERIFY2(right.exitCode == 0, qPrintable(right.out + right.err));
    const Run square = posenc(declared + QStringList {u"--grid"_s, u"8,8"_s});
    QVERIFY2(square.exitCode == 1, qPrintable(square.out + square.err));
    const QJsonObject o = QJsonDocument::fromJson(square.out.toUtf8()).object();
    QCOMPARE(o[u"mistakes"_s].toArray().first().toString(), u"grid"_s);
    const QString diagnosis = o[u"diagnosis"_s].toString();
    QVERIFY2(diagnosis.contains(u"a 6 x 10 grid (60 patches)"_s) && diagnosis.contains(u"is 8 x 8 (64 patches)"_s),
             qPrintable(diagnosis));
    // At a rope_theta the table was not made with, no grid's table holds it: refused, both shapes said.
    const Run refused = posenc({u"check"_s, file, u"--expect"_s, u"rope-2d"_s, u"--head-dim"_s, u"64"_s, u"--grid"_s,
                                u"8,8"_s, u"--rope-theta"_s, u"1000"_s});
    QVERIFY2(refused.exitCode == 2 && refused.err.contains(u"this one is 60 x 64"_s),
             qPrintable(refused.out + refused.err));
}

POSENC_TEST_GUILESS_MAIN(TestCliVision)
} // namespace tst_clivision
#include "tst_clivision.moc"
