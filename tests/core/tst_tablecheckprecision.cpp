// What "precision" promises: float32-angles only where the evidence supports it, the error growing
// with the position as float32 rounding of p w_i makes it, and the evidence printed (the largest
// |error| in the first and last rows, and what float32 angles predict there). Tables built in
// float64 are exact at every size (1,048,576 x 64 with POSENC_VERDICTS_LONG set); torch's float32
// PositionalEncoding is float32 angles; a table whose error is flat is not.
#include "CheckTables.h"

#include "core/check/CheckReport.h"
#include "core/check/TableMatch.h"

#include <QRegularExpression>
#include <QtTest>

#include <cmath>
#include <random>

using namespace posenc;
using namespace checktables;
using namespace Qt::StringLiterals;

namespace {

// torch's PositionalEncoding (the PyTorch tutorial) in float32: div_term = exp(arange(0, d, 2) *
// (-ln(10000) / d)) in float32, position * div_term in float32, its sine in even columns.
RowMatrixXf torchFloat32(std::int64_t rows, std::int64_t d)
{
    const float c = -std::log(10000.0f) / float(d);
    return table(rows, d, [&](std::int64_t p, std::int64_t j) {
        const float angle = float(p) * std::exp(float(j - j % 2) * c);
        return j % 2 ? std::cos(angle) : std::sin(angle);
    });
}

// The largest |table - paper's exact table| (float64) over rows [from, to).
double largestError(const RowMatrixXf &t, std::int64_t from, std::int64_t to)
{
    double worst = 0.0;
    for (std::int64_t p = from; p < to; ++p)
        for (std::int64_t j = 0; j < t.cols(); ++j)
            worst = std::max(worst, std::fabs(double(t(p, j)) - paper(p, j, t.cols(), 10000.0, false)));
    return worst;
}

// The numbers of the report's precision line: its two errors and two predictions.
QList<double> precisionNumbers(const QString &line)
{
    static const QRegularExpression number(
        uR"(max \|error\| (\S+) in rows (\d+)\.\.(\d+) and (\S+) in rows (\d+)\.\.(\d+), where float32 angles predict up to (\S+) and ([^)\s]+))"_s);
    const QRegularExpressionMatch m = number.match(line);
    QList<double> out;
    if (!m.hasMatch())
        return out;
    for (int i = 1; i <= 8; ++i)
        out.append(m.captured(i).toDouble());
    return out;
}

QString reportLine(const Checked &c, const RowMatrixXf &values, const QString &prefix)
{
    const MatrixRows rows(std::make_shared<const RowMatrixXf>(values), StoredType::Float32, u"test"_s);
    for (const QString &line : CheckReport::tableLines(c.match, rows)) {
        if (line.startsWith(prefix))
            return line;
    }
    return {};
}

} // namespace

Q_DECLARE_METATYPE(posenc::StoredType)

class TestTableCheckPrecision : public QObject
{
    Q_OBJECT

private slots:
    // The paper's sinusoid and HF's RoPE cos computed in float64 and stored as float64: exact.
    void float64TablesAreExact_data()
    {
        QTest::addColumn<qint64>("rows");
        QTest::addColumn<qint64>("cols");
        QTest::addColumn<bool>("rope");
        for (const TableSize &s : tableSizes()) {
            QTest::addRow("sinusoid, %s", s.name) << qint64(s.rows) << qint64(s.cols) << false;
            QTest::addRow("rope cos, %s", s.name) << qint64(s.rows) << qint64(s.cols) << true;
        }
    }
    void float64TablesAreExact()
    {
        QFETCH(qint64, rows);
        QFETCH(qint64, cols);
        QFETCH(bool, rope);
        const std::int64_t h = cols / 2;
        const RowMatrixXf values = table(rows, cols, [&](std::int64_t p, std::int64_t j) {
            return rope ? std::cos(double(p) * std::pow(10000.0, -2.0 * double(j % h) / double(cols)))
                        : paper(p, j, cols, 10000.0, false);
        });
        const Checked c = check(values, StoredType::Float64);
        QVERIFY2(c.match.verdict == CheckVerdict::Correct, qPrintable(c.match.diagnosis + c.match.deviations));
        QCOMPARE(*c.match.precision, TablePrecision::Exact);
        QVERIFY(!c.match.angleEvidence);
        QVERIFY(reportLine(c, values, u"precision: "_s) == u"precision: exact"_s);
    }

    // torch's float32 form: float32 angles, the evidence's numbers those of float64 here (the check
    // compares float32 values: a half unit of the reference's rounding apart), and printed.
    void torchFloat32IsFloat32Angles_data()
    {
        QTest::addColumn<qint64>("rows");
        QTest::addColumn<qint64>("cols");
        QTest::newRow("2048 x 128") << qint64(2048) << qint64(128);
        QTest::newRow("4096 x 512") << qint64(4096) << qint64(512);
    }
    void torchFloat32IsFloat32Angles()
    {
        QFETCH(qint64, rows);
        QFETCH(qint64, cols);
        const RowMatrixXf values = torchFloat32(rows, cols);
        const Checked c = check(values);
        QVERIFY2(c.match.verdict == CheckVerdict::Correct, qPrintable(c.match.diagnosis + c.match.deviations));
        QCOMPARE(*c.match.precision, TablePrecision::Float32Angles);
        QVERIFY(c.match.angleEvidence);
        const AngleEvidence &e = *c.match.angleEvidence;
        const qint64 band = rows / 16;
        QCOMPARE(qint64(e.firstRow), qint64(0));
        QCOMPARE(qint64(e.firstEnd), band);
        QCOMPARE(qint64(e.lastRow), rows - band);
        QCOMPARE(qint64(e.lastEnd), rows);
        const double first = largestError(values, 0, band), last = largestError(values, rows - band, rows);
        QVERIFY2(std::fabs(e.firstError - first) <= 6e-8, qPrintable(u"%1 against %2"_s.arg(e.firstError).arg(first)));
        QVERIFY2(std::fabs(e.lastError - last) <= 6e-8, qPrintable(u"%1 against %2"_s.arg(e.lastError).arg(last)));
        QVERIFY(e.lastError > 10.0 * e.firstError); // grows with the position
        QVERIFY(e.lastError <= e.lastPredicted && e.firstError <= e.firstPredicted);
        const QString line = reportLine(c, values, u"precision: "_s);
        QVERIFY2(line.startsWith(u"precision: float32-angles (the error grows with the position"_s), qPrintable(line));
        const QList<double> n = precisionNumbers(line);
        QVERIFY2(n.size() == 8, qPrintable(line));
        const auto near = [](double printed, double value) { return std::fabs(printed - value) <= 5e-3 * value; };
        QVERIFY2(near(n[0], e.firstError) && near(n[3], e.lastError), qPrintable(line));
        QCOMPARE(n[1], 0.0);
        QCOMPARE(n[2], double(band - 1));
        QCOMPARE(n[4], double(rows - band));
        QCOMPARE(n[5], double(rows - 1));
        QVERIFY2(near(n[6], e.firstPredicted) && near(n[7], e.lastPredicted), qPrintable(line));
    }

    // Before: an exact table with noise of 1e-6 in every row from 128 on passed as "correct,
    // float32-angles": float32 angles allow that much there, and no cell held an exact value where
    // they would have moved it. Its error is the same in the first rows and the last: not float32
    // angles, and the noise is a mistake.
    void flatNoiseIsNotFloat32Angles()
    {
        const std::int64_t rows = 65536, d = 4;
        std::mt19937 engine(11);
        std::uniform_real_distribution<double> noise(-1e-6, 1e-6);
        const RowMatrixXf values = table(rows, d, [&](std::int64_t p, std::int64_t j) {
            return paper(p, j, d, 10000.0, false) + (p >= 128 ? noise(engine) : 0.0);
        });
        const Checked c = check(values);
        QCOMPARE(c.match.verdict, CheckVerdict::Mistake);
        QCOMPARE(*c.match.precision, TablePrecision::Exact);
        QVERIFY(c.verification.flat);
        QVERIFY(!c.match.angleEvidence);
        const QString notes = c.match.notes.join(u'\n');
        QVERIFY2(notes.contains(u"not float32 angles: the error does not grow with the position"_s), qPrintable(notes));
        QVERIFY(c.verification.someDeviatingRows.front() >= 128);
    }
};

QTEST_APPLESS_MAIN(TestTableCheckPrecision)
#include "tst_tablecheckprecision.moc"
