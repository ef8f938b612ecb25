// posenc check's sign-flipped (issue 56; REPORT-r26a findings 4 and 6): a block of a table's cells
// negated is named with the block's rows and columns on a table of float32 angles too (the PyTorch
// tutorial's PositionalEncoding, its angle position * div_term formed in float32: the negated
// cells are no evidence against its precision), and its cause is what the block shows: sines of
// the position negated (0 together at position 0) may be a sine taken at +p where -p is meant
// (speechbrain#3070); cosines, even in the position, are not, whatever the sign of p. The tables
// are written here from float64 formulas, the tutorial's float32 steps emulated by rounding.
#include "CliRun.h"
#include "support/TestMain.h"

#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cmath>

namespace tst_clisignflipcause {
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 kRows = 1024, kDim = 512;

// The tutorial's pe[:, 0::2] = sin(position * div_term), pe[:, 1::2] = cos(...), div_term =
// exp(arange(0, d, 2).float() * (-ln(10000) / d)), every step in float32.
double tutorial(qint64 p, qint64 j)
{
    const float scale = float(-std::log(10000.0) / double(kDim));
    const auto div = float(std::exp(double(float(j / 2 * 2) * scale)));
    const double angle = double(float(p) * div);
    return j % 2 == 0 ? std::sin(angle) : std::cos(angle);
}

// The paper's sinusoid in float64.
double paper(qint64 p, qint64 j)
{
    const double angle = double(p) * std::pow(10000.0, -double(j / 2 * 2) / double(kDim));
    return j % 2 == 0 ? std::sin(angle) : std::cos(angle);
}

QString shown(const QJsonObject &o)
{
    return u"exit %1, %2, %3: %4"_s.arg(o[u"exit"_s].toInt())
        .arg(o[u"verdict"_s].toString(),
             QString::fromUtf8(QJsonDocument(o[u"mistakes"_s].toArray()).toJson(QJsonDocument::Compact)),
             o[u"diagnosis"_s].toString());
}

} // namespace

class TestCliSignFlipCause : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    CliRun::TableFiles m_files {m_dir.path()};

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // Columns 0..63 of the tutorial's table negated, undeclared: sign-flipped, the precision float32
    // angles, and only those columns deviate (not every column's rounding).
    void float32AnglesBlockNamed()
    {
        const QString file = m_files.written(
            kRows, kDim, [](qint64 p, qint64 j) { return j < 64 ? -tutorial(p, j) : tutorial(p, j); });
        QVERIFY(!file.isEmpty());
        const QJsonObject o = CliRun::checked(file, {});
        QVERIFY2(o[u"exit"_s].toInt() == 1 && o[u"mistakes"_s].toArray() == QJsonArray {u"sign-flipped"_s},
                 qPrintable(shown(o)));
        QVERIFY2(o[u"precision"_s].toString() == u"float32-angles"_s,
                 qPrintable(shown(o) + u" precision "_s + o[u"precision"_s].toString()));
        const QString all = QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
        QVERIFY2(all.contains(u"columns 0..63"_s), qPrintable(all));
        // The correct table alone is correct.
        const QString right = m_files.written(kRows, kDim, tutorial);
        const QJsonObject ok = CliRun::checked(right, {});
        QVERIFY2(ok[u"verdict"_s].toString() == u"correct"_s, qPrintable(shown(ok)));
    }

    // Against the paper's table (--expect-table): the cosine columns of rows 40..127 negated are no
    // sine taken at +p, and the diagnosis says so; the sine columns negated may be.
    void causeIsWhatTheBlockShows()
    {
        const QString reference = m_files.written(kRows, kDim, paper);
        for (const bool cosines : {true, false}) {
            const QString file = m_files.written(kRows, kDim, [&](qint64 p, qint64 j) {
                const bool block = p >= 40 && p < 128 && j % 2 == (cosines ? 1 : 0);
                return block ? -paper(p, j) : paper(p, j);
            });
            const QJsonObject o = CliRun::checked(file, {u"--expect-table"_s, reference});
            QVERIFY2(o[u"exit"_s].toInt() == 1 && o[u"mistakes"_s].toArray() == QJsonArray {u"sign-flipped"_s},
                     qPrintable(shown(o)));
            const QString diagnosis = o[u"diagnosis"_s].toString();
            QVERIFY2(diagnosis.contains(u"rows 40..127"_s), qPrintable(shown(o)));
            QVERIFY2(diagnosis.contains(u"speechbrain#3070"_s) == !cosines, qPrintable(shown(o)));
            if (cosines)
                QVERIFY2(diagnosis.contains(u"no sign of the position negates them"_s), qPrintable(shown(o)));
        }
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliSignFlipCause)
} // namespace tst_clisignflipcause
#include "tst_clisignflipcause.moc"
