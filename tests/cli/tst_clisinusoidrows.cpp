// posenc check names a sinusoid whose sine and cosine alternate over the rows instead of the
// columns, against a declared sinusoid: `sinusoid-rows` (check/sinusoidal/SinusoidalRows). The class:
// BrianPulfer/PapersReimplementations#9 (fixed by #10), the DDPM notebook's sinusoidal_embedding put
// sin(i / 10000^(2j/d)) on the rows arange(0, n, 2) and cos of those sines on the rows
// 1 - arange(0, n, 2); a table whose odd rows are sin(p w_c) and even rows cos(p w_c) is another of it.
// A faithful table never reads so: declared at another base, transposed ([d, L]) or with its cosines
// replaced, its own reading or mistake is named, never this one. Tables written in float64 here from
// the formulas they follow, stored as float32.
#include "CliCheckRun.h"
#include "NpyBytes.h"
#include "support/TestMain.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <vector>

namespace tst_clisinusoidrows {
using namespace Qt::StringLiterals;

namespace {

using CliCheck::Checked;

constexpr std::int64_t kRows = 200;
constexpr std::int64_t kDim = 64;

// The DDPM notebook's buggy table of n rows, d columns: angle i / 10000^(2j/d) for every column j,
// sin on the even rows, then row (1 - k) mod n (Python's negative index) gets cos of row k's sine
// for k = 0, 2, 4, ... (rows 1, n-1, n-3, ...), as the code's two assignments do in that order.
std::vector<double> ddpmRows(std::int64_t n, std::int64_t d)
{
    std::vector<double> v(std::size_t(n * d));
    const auto angle = [d](std::int64_t i, std::int64_t j) { return double(i) / std::pow(10000.0, 2.0 * double(j) / double(d)); };
    for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t j = 0; j < d; ++j)
            v[std::size_t(i * d + j)] = i % 2 == 0 ? std::sin(angle(i, j)) : angle(i, j);
    for (std::int64_t k = 0; k < n; k += 2) {
        const std::int64_t target = ((1 - k) % n + n) % n;
        for (std::int64_t j = 0; j < d; ++j)
            v[std::size_t(target * d + j)] = std::cos(std::sin(angle(k, j)));
    }
    return v;
}

// Even rows cos(p w_c), odd rows sin(p w_c), w_c = 10000^(-c/d): sine and cosine over the rows.
std::vector<double> alternatingRows(std::int64_t n, std::int64_t d)
{
    std::vector<double> v;
    for (std::int64_t p = 0; p < n; ++p)
        for (std::int64_t c = 0; c < d; ++c) {
            const double a = double(p) * std::pow(10000.0, -double(c) / double(d));
            v.push_back(p % 2 == 0 ? std::cos(a) : std::sin(a));
        }
    return v;
}

// The paper's interleaved sinusoid at `base` (sin in column 2i, cos in 2i + 1), or sines in both
// columns (`cosReplaced`); `transposed` writes it [d, L].
std::vector<double> paper(std::int64_t n, std::int64_t d, double base, bool cosReplaced, bool transposed)
{
    std::vector<double> v(std::size_t(n * d));
    for (std::int64_t p = 0; p < n; ++p)
        for (std::int64_t c = 0; c < d; ++c) {
            const double a = double(p) * std::pow(base, -double(2 * (c / 2)) / double(d));
            const double value = c % 2 == 0 || cosReplaced ? std::sin(a) : std::cos(a);
            v[std::size_t(transposed ? c * n + p : p * d + c)] = value;
        }
    return v;
}

QStringList declared(const QString &layout, std::int64_t d)
{
    return {u"--expect"_s, u"sinusoidal"_s, u"--layout"_s, layout, u"--d-model"_s, QString::number(d)};
}

} // namespace

class TestCliSinusoidRows : public QObject
{
    Q_OBJECT

private slots:
    void rowsNamed_data()
    {
        QTest::addColumn<bool>("ddpm");
        QTest::addColumn<QString>("layout");
        QTest::newRow("ddpm-interleaved") << true << u"interleaved"_s;
        QTest::newRow("ddpm-split") << true << u"split"_s;
        QTest::newRow("cos-even-sin-odd") << false << u"interleaved"_s;
    }
    void rowsNamed()
    {
        QFETCH(bool, ddpm);
        QFETCH(QString, layout);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto values = ddpm ? ddpmRows(kRows, kDim) : alternatingRows(kRows, kDim);
        const Checked c = CliCheck::check(dir, npy({kRows, kDim}, values), declared(layout, kDim));
        QVERIFY2(CliCheck::named(c.json, {u"sinusoid-rows"_s}), qPrintable(c.shown));
        QVERIFY2(c.diagnosis().contains(ddpm ? u"the even rows"_s : u"the odd rows"_s), qPrintable(c.diagnosis()));
    }

    // Faithful tables keep their own reading: never sinusoid-rows.
    void faithfulNotRows()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        // Declared at base 10000, written at base 100: the base named.
        const Checked base = CliCheck::check(dir, npy({kRows, kDim}, paper(kRows, kDim, 100.0, false, false)),
                                             declared(u"interleaved"_s, kDim));
        QVERIFY2(base.exit == 1 && !base.mistakes().contains(u"sinusoid-rows"_s), qPrintable(base.shown));
        // The cosines replaced by sines: every row a sine, no alternation over the rows.
        const Checked replaced = CliCheck::check(dir, npy({kRows, kDim}, paper(kRows, kDim, 10000.0, true, false)),
                                                 declared(u"interleaved"_s, kDim));
        QVERIFY2(replaced.exit == 1 && replaced.mistakes().contains(u"cos-replaced"_s)
                     && !replaced.mistakes().contains(u"sinusoid-rows"_s),
                 qPrintable(replaced.shown));
        // The paper's table written [d, L] (a row per dimension), and at its own width declared.
        for (const std::int64_t width : {kDim, kRows}) {
            const Checked t = CliCheck::check(dir, npy({kDim, kRows}, paper(kRows, kDim, 10000.0, false, true)),
                                              declared(u"interleaved"_s, width));
            QVERIFY2(t.verdict() != u"correct"_s || width == kDim, qPrintable(t.shown));
            QVERIFY2(!t.mistakes().contains(u"sinusoid-rows"_s), qPrintable(t.shown));
        }
        // The paper's table itself: correct.
        const Checked faithful = CliCheck::check(dir, npy({kRows, kDim}, paper(kRows, kDim, 10000.0, false, false)),
                                                 declared(u"interleaved"_s, kDim));
        QVERIFY2(faithful.verdict() == u"correct"_s, qPrintable(faithful.shown));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliSinusoidRows)
} // namespace tst_clisinusoidrows
#include "tst_clisinusoidrows.moc"
