// Every number of a check's report against numpy: tests/data/make_check_numbers.py wrote a few
// wrong tables (.npy) and, in float64, the numbers their reports should give (expected.json). Each
// table is opened as `posenc check` opens it, identified, streamed and concluded, and its report's
// lines (CheckReport::tableLines, what the command prints and the window shows) read back: the
// verdict and mistakes, the largest |error| and its cell, the tolerance, the first position row
// and offset, the counts of deviating columns and rows, the scale and the base.
#include "check/CheckReport.h"
#include "check/TableCheck.h"
#include "io/TableFile.h"
#include "support/TestMain.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QtTest>

#include <cmath>
#include <variant>

namespace tst_tablechecknumbers {
using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

QJsonObject expected(const QString &file)
{
    QFile f(QDir(QStringLiteral(POSENC_CHECK_NUMBERS)).filePath(u"expected.json"_s));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    for (const QJsonValue &v : QJsonDocument::fromJson(f.readAll()).object().value(u"tables"_s).toArray()) {
        if (v.toObject().value(u"file"_s).toString() == file)
            return v.toObject();
    }
    return {};
}

QString line(const QStringList &lines, const QString &prefix)
{
    for (const QString &l : lines) {
        if (l.startsWith(prefix))
            return l.mid(prefix.size());
    }
    return {};
}

// A number printed with three significant digits against its value.
bool printedAs(const QString &printed, double value)
{
    bool ok = false;
    const double p = printed.toDouble(&ok);
    return ok && std::fabs(p - value) <= 5e-3 * std::fabs(value) + 1e-300;
}

double finding(const TableMatch &m, const QString &key)
{
    const MatchValue v = m.finding(key);
    if (const auto *d = std::get_if<double>(&v))
        return *d;
    return std::nan("");
}

} // namespace

class TestTableCheckNumbers : public QObject
{
    Q_OBJECT

private slots:
    void reportNumbers_data()
    {
        QTest::addColumn<QString>("file");
        for (const char *name : {"scaled.npy", "exponent_halved.npy", "offset.npy", "one_cell.npy", "variant_base.npy",
                                 "log_base_missing.npy"})
            QTest::newRow(name) << QString::fromLatin1(name);
    }
    void reportNumbers()
    {
        QFETCH(QString, file);
        const QJsonObject e = expected(file);
        QVERIFY2(!e.isEmpty(), "tests/data/checknumbers/expected.json has no entry for the file");
        MatrixSource source;
        source.path = QDir(QStringLiteral(POSENC_CHECK_NUMBERS)).filePath(file);
        const auto opened = TableFile::open(source, std::uint64_t(1) << 30);
        QVERIFY(opened.ok());
        const TableRows &rows = *opened.value();
        // The positions declared where the entry says so (--positions 0:L), else none: a window
        // nothing declares is said, not judged.
        TableCheck::Declared declared;
        if (e.contains(u"positions_declared"_s)) {
            declared.positionsDeclared = true;
            declared.firstPosition = e.value(u"positions_declared"_s).toInt();
        }
        if (e.contains(u"pe_scale_declared"_s))
            declared.amplitude = e.value(u"pe_scale_declared"_s).toDouble();
        auto identified = TableCheck::identify(rows, declared);
        QVERIFY(std::holds_alternative<TableMatch>(identified));
        TableMatch m = std::get<TableMatch>(std::move(identified));
        const TableCheck::Verification v = TableCheck::verify(m, rows, {});
        TableCheck::conclude(m, v);
        const QStringList lines = CheckReport::tableLines(m, rows);
        const QString report = lines.join(u'\n');

        // The verdict and the mistakes.
        QString verdict = e.value(u"verdict"_s).toString();
        QStringList mistakes;
        for (const QJsonValue &id : e.value(u"mistakes"_s).toArray())
            mistakes.append(id.toString());
        if (!mistakes.isEmpty())
            verdict += u" (%1)"_s.arg(mistakes.join(u", "_s));
        QCOMPARE(line(lines, u"verdict: "_s), verdict);
        QCOMPARE(
            line(lines, u"table: "_s),
            u"%1, %2 x %3, float32"_s.arg(source.path).arg(e.value(u"rows"_s).toInt()).arg(e.value(u"cols"_s).toInt()));

        // max |error|: X at row r, column c (tolerance T of |reference| + A)
        static const QRegularExpression largest(
            uR"(^(\S+) at row (\d+), column (\d+) \(tolerance (\S+) of \|reference\| \+ ([^)]+)\)$)"_s);
        const QRegularExpressionMatch worst = largest.match(line(lines, u"max |error|: "_s));
        QVERIFY2(worst.hasMatch(), qPrintable(report));
        QVERIFY2(printedAs(worst.captured(1), e.value(u"max_abs_error"_s).toDouble()), qPrintable(report));
        QVERIFY2(std::fabs(*m.maxAbsError - e.value(u"max_abs_error"_s).toDouble()) <= 2e-7, qPrintable(report));
        const QJsonArray cell {worst.captured(2).toInt(), worst.captured(3).toInt()};
        QVERIFY2(e.value(u"worst_cells"_s).toArray().contains(cell), qPrintable(report));
        QVERIFY2(printedAs(worst.captured(4), e.value(u"tolerance_relative"_s).toDouble()), qPrintable(report));
        QVERIFY2(printedAs(worst.captured(5), e.value(u"tolerance_absolute"_s).toDouble()), qPrintable(report));

        // first position row: f (row r holds position r + o), "r" alone when o is 0
        const int offset = e.value(u"position_offset"_s).toInt();
        QCOMPARE(line(lines, u"first position row: "_s),
                 u"%1 (row r holds position %2)"_s.arg(e.value(u"first_position_row"_s).toInt())
                     .arg(offset == 0 ? u"r"_s : u"r + %1"_s.arg(offset)));

        // deviating: columns ... (n of d); rows ... (m of L)
        const int columns = e.value(u"deviating_columns"_s).toInt(),
                  deviatingRows = e.value(u"deviating_rows"_s).toInt();
        const QString deviating = line(lines, u"deviating: "_s);
        if (columns == 0) {
            QVERIFY2(deviating.isEmpty(), qPrintable(report));
        } else {
            static const QRegularExpression counts(uR"(\((\d+) of (\d+)\); .*\((\d+) of (\d+)\)$)"_s);
            const QRegularExpressionMatch n = counts.match(deviating);
            const bool every = deviating.startsWith(u"every column (%1);"_s.arg(e.value(u"cols"_s).toInt()));
            QVERIFY2(n.hasMatch() || every, qPrintable(report));
            if (!every) {
                QCOMPARE(n.captured(1).toInt(), columns);
                QCOMPARE(n.captured(2).toInt(), e.value(u"cols"_s).toInt());
            }
            QVERIFY2(deviating.endsWith(u"(%1 of %2)"_s.arg(deviatingRows).arg(e.value(u"rows"_s).toInt()))
                         || deviating.endsWith(u"every row (%1)"_s.arg(e.value(u"rows"_s).toInt())),
                     qPrintable(report));
            QCOMPARE(v.deviatingCells, qint64(e.value(u"deviating_cells"_s).toInt()));
        }

        // The findings, base and scale, and the scale in the diagnosis's words.
        const QJsonObject findings = e.value(u"findings"_s).toObject();
        for (auto it = findings.begin(); it != findings.end(); ++it)
            QVERIFY2(
                std::fabs(finding(m, it.key()) / it.value().toDouble() - 1.0) <= 1e-9,
                qPrintable(u"%1: %2 against %3"_s.arg(it.key()).arg(finding(m, it.key())).arg(it.value().toDouble())));
        if (findings.contains(u"scale"_s))
            QVERIFY2(
                line(lines, u"diagnosis: "_s).contains(QString::number(findings.value(u"scale"_s).toDouble(), 'g', 7)),
                qPrintable(report));
    }
};

POSENC_TEST_GUILESS_MAIN(TestTableCheckNumbers)
} // namespace tst_tablechecknumbers
#include "tst_tablechecknumbers.moc"
