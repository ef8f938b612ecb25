// `posenc check --apply X Y` as a script meets it: a query before and after RoPE (written here in
// float64 as HF's apply_rotary_pos_emb, modeling_llama.py, computes it: q * cos + rotate_half(q) *
// sin; or GPT-J's rotate_every_two), its report and exit code; each bad use refused naming --apply.
#include "CliRun.h"

#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cmath>
#include <random>

using namespace Qt::StringLiterals;

namespace {

constexpr qint64 kRows = 256, kDim = 64;

// X random normal; Y X turned at position r + offset, theta 10000, the table's pairs `table` and the
// rotation's `rotation` (true: half).
std::pair<std::vector<float>, std::vector<float>> applied(qint64 offset, bool table, bool rotation)
{
    std::mt19937 engine(11);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::vector<float> x(std::size_t(kRows * kDim)), y(x.size());
    for (float &v : x)
        v = float(normal(engine));
    const qint64 h = kDim / 2;
    for (qint64 r = 0; r < kRows; ++r) {
        const auto at = [&](qint64 j) { return double(x[std::size_t(r * kDim + j)]); };
        for (qint64 j = 0; j < kDim; ++j) {
            const qint64 k = table ? j % h : j / 2;
            const double angle = double(r + offset) * std::pow(10000.0, -2.0 * double(k) / double(kDim));
            const double turned = rotation ? (j < h ? -at(j + h) : at(j - h)) : (j % 2 == 0 ? -at(j + 1) : at(j - 1));
            y[std::size_t(r * kDim + j)] = float(at(j) * std::cos(angle) + turned * std::sin(angle));
        }
    }
    return {x, y};
}

} // namespace

class TestCliApply : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QStringList written(const QString &name, qint64 offset, bool table, bool rotation)
    {
        const auto [x, y] = applied(offset, table, rotation);
        const QString xPath = m_dir.filePath(name + u"-x.npy"_s), yPath = m_dir.filePath(name + u"-y.npy"_s);
        if (!CliRun::writeNpy(xPath, kRows, kDim, x) || !CliRun::writeNpy(yPath, kRows, kDim, y))
            return {};
        return {xPath, yPath};
    }

private slots:
    void rotationsAreReported_data()
    {
        QTest::addColumn<qint64>("offset");
        QTest::addColumn<bool>("table");
        QTest::addColumn<bool>("rotation");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("mistake");
        QTest::newRow("half, from 0") << qint64(0) << true << true << 0 << QString();
        QTest::newRow("interleaved, from 0") << qint64(0) << false << false << 0 << QString();
        QTest::newRow("from 3") << qint64(3) << true << true << 1 << u"position-offset"_s;
        QTest::newRow("half table, rotate_every_two") << qint64(0) << true << false << 1 << u"rope-layout-swapped"_s;
    }
    void rotationsAreReported()
    {
        QFETCH(qint64, offset);
        QFETCH(bool, table);
        QFETCH(bool, rotation);
        QFETCH(int, exitCode);
        QFETCH(QString, mistake);
        const QStringList files = written(QString::fromLatin1(QTest::currentDataTag()), offset, table, rotation);
        QCOMPARE(files.size(), 2);
        CliRun::Run run = CliRun::posenc({u"check"_s, u"--apply"_s, files[0], files[1], u"--json"_s});
        QVERIFY2(run.exitCode == exitCode, qPrintable(run.out + run.err));
        const QJsonObject o = QJsonDocument::fromJson(run.out.toUtf8()).object();
        QCOMPARE(o[u"format"_s].toString(), u"posenc-check-apply"_s);
        QCOMPARE(o[u"layout"_s].toString(), rotation ? u"half"_s : u"interleaved"_s);
        QCOMPARE(o[u"table_layout"_s].toString(), table ? u"half"_s : u"interleaved"_s);
        QCOMPARE(o[u"attention_factor"_s].toDouble(), 1.0);
        QVERIFY2(o[u"frequencies"_s].toString().contains(u"theta 10000"_s), qPrintable(run.out));
        const QJsonArray mistakes = o[u"mistakes"_s].toArray();
        QCOMPARE(mistakes.isEmpty(), mistake.isEmpty());
        if (!mistake.isEmpty())
            QCOMPARE(mistakes.first().toString(), mistake);
        if (table == rotation) {
            const QJsonArray runs = o[u"positions"_s].toArray();
            QCOMPARE(runs.size(), 1);
            QCOMPARE(runs.first().toArray(), (QJsonArray {0, offset, kRows}));
            QCOMPARE(o[u"position_offset"_s].toInteger(), offset);
        }
        run = CliRun::posenc({u"check"_s, u"--apply"_s, files[0], files[1]});
        QVERIFY2(run.out.contains(u"rotation: %1 pairs"_s.arg(rotation ? u"half"_s : u"interleaved"_s)),
                 qPrintable(run.out));
        QCOMPARE(run.exitCode, exitCode);
    }

    void badUseIsRefused()
    {
        const QStringList files = written(u"bad"_s, 0, true, true);
        QCOMPARE(files.size(), 2);
        CliRun::Run run = CliRun::posenc({u"check"_s, u"--apply"_s, files[0]});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.startsWith(u"posenc check: --apply X Y: expected one Y"_s), qPrintable(run.err));
        QVERIFY(run.out.isEmpty());
        const QString shorter = m_dir.filePath(u"short.npy"_s);
        QVERIFY(CliRun::writeNpy(shorter, 10, kDim, std::vector<float>(std::size_t(10 * kDim), 1.0f)));
        run = CliRun::posenc({u"check"_s, u"--apply"_s, files[0], shorter});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.startsWith(u"posenc check: --apply: X is 256 x 64 and Y 10 x 64"_s), qPrintable(run.err));
        run = CliRun::posenc({u"check"_s, u"--apply"_s, m_dir.filePath(u"none.npy"_s), files[1]});
        QCOMPARE(run.exitCode, 3);
        QVERIFY2(run.err.startsWith(u"posenc check: --apply X: "_s), qPrintable(run.err));
    }
};

QTEST_GUILESS_MAIN(TestCliApply)
#include "tst_cliapply.moc"
