// The `posenc bench` contract of docs/ARCHITECTURE.md, Performance: its JSON keys (no timings
// are asserted), the window's views it times, and its refusals with exit code 2.
#include "CliRun.h"
#include "support/TestMain.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>

namespace tst_clibench {
using namespace Qt::StringLiterals;
using namespace CliRun;

class TestCliBench : public QObject
{
    Q_OBJECT

private slots:
    void benchJsonHasItsKeys();
    void benchRefusesAnInvalidNumberOfChanges_data();
    void benchRefusesAnInvalidNumberOfChanges();
    void benchRefusesConcat();
    void benchKernelsOnlyLeavesTheWindowOut();
    void benchRefusesChangesWithKernelsOnly_data();
    void benchRefusesChangesWithKernelsOnly();
    void benchRefusesAnUnknownView();
    void benchTimesOnlyTheViewsAsked();
};

void TestCliBench::benchJsonHasItsKeys()
{
    // A few changes of the window at L 8192 x d 1024, none at the larger size (whose start waits
    // a minute or more for every view to be exact): the default bench drives it the same way.
    const Run run
        = posenc({u"bench"_s, u"--json"_s, u"--repeats"_s, u"1"_s, u"--max-len"_s, u"256"_s, u"--d-model"_s, u"64"_s,
                  u"--interaction-changes"_s, u"12"_s, u"--scale-changes"_s, u"0"_s, u"--view-changes"_s, u"2"_s});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject json = QJsonDocument::fromJson(run.out.toUtf8()).object();
    for (const char *key : {"pe_fill_gbps", "pe_fill_ms", "pe_fill_split_ms", "write_bandwidth_gbps", "pipeline_ms",
                            "stream_copy_ms", "pipeline_over_copy"})
        QVERIFY2(json.value(QLatin1StringView(key)).toDouble() > 0.0, key);
    QCOMPARE(json.value(u"pipeline_over_copy"_s).toDouble(),
             json.value(u"pipeline_ms"_s).toDouble() / json.value(u"stream_copy_ms"_s).toDouble());
    // RoPE's cos table at 131072 x 128 against the plain fill of its own buffer: a share of it.
    for (const char *key : {"rope_fill_ms", "rope_fill_gbps", "rope_write_bandwidth_gbps"})
        QVERIFY2(json.value(QLatin1StringView(key)).toDouble() > 0.0, key);
    const double ropeFraction = json.value(u"rope_fill_fraction_of_bandwidth"_s).toDouble();
    QVERIFY2(ropeFraction > 0.0 && ropeFraction < 10.0, qPrintable(run.out));
    QVERIFY(
        std::abs(ropeFraction
                 - json.value(u"rope_fill_gbps"_s).toDouble() / json.value(u"rope_write_bandwidth_gbps"_s).toDouble())
        < 1e-9 * ropeFraction);
    // The SIMD target the kernels ran on, by Highway's name.
    const QStringList targets {u"SCALAR"_s, u"EMU128"_s, u"SSSE3"_s, u"SSE4"_s, u"AVX2"_s, u"AVX3"_s, u"AVX3_DL"_s};
    QVERIFY2(targets.contains(json.value(u"simd_target"_s).toString()), qPrintable(run.out));
    QCOMPARE(json.value(u"rows"_s).toDouble(), 256.0);
    // The interaction benchmark drove the real window through its parameter changes; the tenth
    // waited for every view refined in full.
    QCOMPARE(json.value(u"interaction_changes"_s).toDouble(), 12.0);
    for (const char *key : {"interaction_p95_ms", "interaction_settled_p95_ms", "interaction_gui_cpu_p50_ms",
                            "interaction_gui_cpu_p95_ms", "gui_max_stall_ms", "interaction_gui_max_busy_ms"})
        QVERIFY2(json.value(QLatin1StringView(key)).toDouble() > 0.0, key);
    // Each family's default views and the check heatmap (here over the bench's 256 x 64 table),
    // each with its changes, their p95 and the GUI thread's processor time.
    for (const QString &view : {u"sinusoidal"_s, u"rope"_s, u"alibi"_s, u"t5"_s, u"deberta"_s, u"check"_s})
        for (const QString &key : {u"interaction_changes_"_s, u"interaction_p95_ms_"_s,
                                   u"interaction_gui_cpu_p50_ms_"_s, u"interaction_gui_cpu_p95_ms_"_s})
            QVERIFY2(json.value(key + view).toDouble() > 0.0, qPrintable(key + view + u": "_s + run.err));
    QCOMPARE(json.value(u"interaction_p95_ms_sinusoidal"_s).toDouble(), json.value(u"interaction_p95_ms"_s).toDouble());
    // The sinusoid's changes of each kind, the GUI thread's p50 of each.
    for (const QString &kind : {u"d_model"_s, u"max_len"_s, u"scale"_s, u"p"_s})
        QVERIFY2(json.value(u"interaction_gui_cpu_p50_ms_sinusoidal_"_s + kind).toDouble() > 0.0, qPrintable(kind));
    // A figure view lays its figure out for each change it draws, and fits it to its room once settled.
    for (const QString &view : {u"sinusoidal"_s, u"rope"_s, u"alibi"_s, u"t5"_s, u"deberta"_s}) {
        QVERIFY2(json.value(u"interaction_layouts_per_change_"_s + view).toDouble() >= 1.0, qPrintable(view));
        QVERIFY2(json.value(u"interaction_fittings_per_change_"_s + view).toDouble() > 0.0, qPrintable(view));
    }
    for (const char *key :
         {"interaction_scale_changes", "interaction_scale_p95_ms", "interaction_scale_settled_p95_ms"})
        QVERIFY2(json.contains(QLatin1StringView(key)) && json.value(QLatin1StringView(key)).toDouble() == 0.0, key);
    QVERIFY(json.value(u"pe_max_abs_error"_s).toDouble() < 1e-6);
}

void TestCliBench::benchRefusesAnInvalidNumberOfChanges_data()
{
    QTest::addColumn<QString>("option");
    QTest::addColumn<QString>("value");
    QTest::newRow("negative") << u"--interaction-changes"_s << u"-1"_s;
    QTest::newRow("not a number") << u"--scale-changes"_s << u"many"_s;
}

void TestCliBench::benchRefusesAnInvalidNumberOfChanges()
{
    QFETCH(QString, option);
    QFETCH(QString, value);
    const Run run = posenc({u"bench"_s, u"--json"_s, option, value});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(option + u": must be an integer in [0, 100000]; got '"_s + value + u"'"_s),
             qPrintable(run.err));
    QVERIFY(run.out.isEmpty());
}

// The bench times the sum over its whole buffer; concat's narrower tables were read past their end.
void TestCliBench::benchRefusesConcat()
{
    const Run run = posenc({u"bench"_s, u"--json"_s, u"--kernels-only"_s, u"--compose"_s, u"concat"_s, u"--max-len"_s,
                            u"64"_s, u"--d-model"_s, u"32"_s});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(u"--compose: the bench times the sum"_s), qPrintable(run.err));
    QVERIFY(run.out.isEmpty());
}

// The kernels' keys, and none of the window's: --kernels-only never opens it.
void TestCliBench::benchKernelsOnlyLeavesTheWindowOut()
{
    const Run run = posenc({u"bench"_s, u"--json"_s, u"--kernels-only"_s, u"--repeats"_s, u"1"_s, u"--max-len"_s,
                            u"128"_s, u"--d-model"_s, u"64"_s});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject json = QJsonDocument::fromJson(run.out.toUtf8()).object();
    QCOMPARE(json.value(u"rows"_s).toDouble(), 128.0);
    QCOMPARE(json.value(u"cols"_s).toDouble(), 64.0);
    // posenc check on a table of the bench's size, against reading its file as cat does.
    QCOMPARE(json.value(u"check_rows"_s).toDouble(), 128.0);
    QCOMPARE(json.value(u"check_cols"_s).toDouble(), 64.0);
    QCOMPARE(json.value(u"check_over_read"_s).toDouble(),
             json.value(u"check_ms"_s).toDouble() / json.value(u"check_read_ms"_s).toDouble());
    // And RoPE's float32 cos table of the same size, checked correct (else the keys are missing).
    QVERIFY2(json.value(u"check_rope_ms"_s).toDouble() > 0.0, qPrintable(run.err));
    QCOMPARE(json.value(u"check_rope_over_read"_s).toDouble(),
             json.value(u"check_rope_ms"_s).toDouble() / json.value(u"check_rope_read_ms"_s).toDouble());
    QVERIFY(json.value(u"check_rope_median_ms"_s).toDouble() >= json.value(u"check_rope_ms"_s).toDouble());
    for (const char *key : {"pe_fill_ms", "pe_fill_split_ms", "stream_copy_ms", "pipeline_ms", "pipeline_over_copy",
                            "pipeline_without_dropout_ms", "dropout_bits_ms"})
        QVERIFY2(json.value(QLatin1StringView(key)).toDouble() > 0.0, key);
    QCOMPARE(json.value(u"pipeline_without_dropout_over_copy"_s).toDouble(),
             json.value(u"pipeline_without_dropout_ms"_s).toDouble() / json.value(u"stream_copy_ms"_s).toDouble());
    QVERIFY(json.value(u"pe_max_abs_error"_s).toDouble() < 1e-6);
    for (auto it = json.begin(); it != json.end(); ++it)
        QVERIFY2(!it.key().startsWith(u"interaction"_s) && !it.key().startsWith(u"gui_"_s), qPrintable(it.key()));
}

void TestCliBench::benchRefusesChangesWithKernelsOnly_data()
{
    QTest::addColumn<QString>("option");
    QTest::newRow("interaction") << u"--interaction-changes"_s;
    QTest::newRow("scale") << u"--scale-changes"_s;
    QTest::newRow("view changes") << u"--view-changes"_s;
    QTest::newRow("views") << u"--views"_s;
}

// The change counts drive the window, which --kernels-only leaves out: they were silently ignored.
void TestCliBench::benchRefusesChangesWithKernelsOnly()
{
    QFETCH(QString, option);
    const Run run = posenc({u"bench"_s, u"--json"_s, u"--kernels-only"_s, option, u"5"_s});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(option + u": the window's changes are not run with --kernels-only"_s),
             qPrintable(run.err));
    QVERIFY(run.out.isEmpty());
}

// --views names the views it times; a word that is none of them is refused with the list.
void TestCliBench::benchRefusesAnUnknownView()
{
    const Run run = posenc({u"bench"_s, u"--json"_s, u"--views"_s, u"rope,alibbi"_s});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(
        run.err.contains(u"--views: each of sinusoidal, rope, alibi, t5, deberta, positions, check; got 'alibbi'"_s),
        qPrintable(run.err));
    QVERIFY(run.out.isEmpty());
}

// The views left out of --views are not run: their keys are zero, the others' are not.
void TestCliBench::benchTimesOnlyTheViewsAsked()
{
    const Run run
        = posenc({u"bench"_s, u"--json"_s, u"--repeats"_s, u"1"_s, u"--max-len"_s, u"128"_s, u"--d-model"_s, u"32"_s,
                  u"--scale-changes"_s, u"0"_s, u"--views"_s, u"alibi,check"_s, u"--view-changes"_s, u"2"_s});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject json = QJsonDocument::fromJson(run.out.toUtf8()).object();
    for (const QString &view : {u"sinusoidal"_s, u"rope"_s, u"alibi"_s, u"t5"_s, u"deberta"_s, u"check"_s}) {
        const bool asked = view == u"alibi"_s || view == u"check"_s;
        QVERIFY2((json.value(u"interaction_changes_"_s + view).toDouble() > 0.0) == asked, qPrintable(view));
    }
    QCOMPARE(json.value(u"interaction_changes"_s).toDouble(), 0.0);
}

POSENC_TEST_GUILESS_MAIN(TestCliBench)
} // namespace tst_clibench
#include "tst_clibench.moc"
