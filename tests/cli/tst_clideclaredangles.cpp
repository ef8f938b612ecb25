// Declaring a sinusoid's angles float32 (--angles float32) widens what faithful computations give,
// never narrows it (issue 56, honest tolerance). PyTorch's PositionalEncoding tutorial
// (pytorch/tutorials beginner_source/transformer_tutorial.py, PositionalEncoding.__init__:
// div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model)), pe[:, 0::2] =
// sin(position * div_term), pe[:, 1::2] = cos(...), all float32) forms its angles as an exp of a
// product, not posenc's power: it is correct under the declaration as undeclared, and so is a
// float64 table rounded to float32; a table at base 1000 is still a mistake. The tables are
// computed here: the float32 steps in float, each sin or cos of the float32 angle in float64 rounded
// once to float32 (a faithful float32 sin).
#include "CliRun.h"
#include "support/TestMain.h"

#include <QtTest>

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cmath>
#include <vector>

namespace tst_clideclaredangles {
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 kRows = 2048;
constexpr qint64 kCols = 128;

// The tutorial's table at `base`, its steps in float32.
std::vector<float> tutorial(double base)
{
    const auto c = float(-std::log(base) / double(kCols));
    return CliRun::cells(kRows, kCols, [&](qint64 p, qint64 j) {
        const float divTerm = std::exp(float(j - j % 2) * c);
        const float angle = float(p) * divTerm;
        return j % 2 == 0 ? std::sin(double(angle)) : std::cos(double(angle));
    });
}

// The paper's sinusoid in float64, rounded once to float32.
std::vector<float> exact()
{
    return CliRun::cells(kRows, kCols, [](qint64 p, qint64 j) {
        const double angle = double(p) * std::pow(10000.0, -double(j - j % 2) / double(kCols));
        return j % 2 == 0 ? std::sin(angle) : std::cos(angle);
    });
}

} // namespace

class CliDeclaredAngles : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    int check(const std::vector<float> &table, const QStringList &flags, QString &said)
    {
        const QString path = m_dir.filePath(u"pe.npy"_s);
        if (!CliRun::writeNpy(path, kRows, kCols, table))
            return -1;
        const CliRun::Run r = CliRun::posenc(
            QStringList {u"check"_s, path, u"--json"_s, u"--quiet"_s, u"--expect"_s, u"sinusoidal"_s} + flags);
        said = r.out;
        if (r.exitCode != 0)
            said += r.err;
        return r.exitCode;
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void faithfulTablesUnderFloat32Angles_data()
    {
        QTest::addColumn<bool>("torch");
        QTest::addColumn<bool>("declared");
        QTest::newRow("tutorial, float32 angles declared") << true << true;
        QTest::newRow("tutorial, undeclared angles") << true << false;
        QTest::newRow("float64 rounded, float32 angles declared") << false << true;
    }

    void faithfulTablesUnderFloat32Angles()
    {
        QFETCH(bool, torch);
        QFETCH(bool, declared);
        QString said;
        const int exit = check(torch ? tutorial(10000.0) : exact(),
                               declared ? QStringList {u"--angles"_s, u"float32"_s} : QStringList {}, said);
        QVERIFY2(exit == 0, qPrintable(said));
        if (declared)
            QCOMPARE(QJsonDocument::fromJson(said.toUtf8()).object().value(u"precision"_s).toString(),
                     u"float32-angles"_s);
    }

    // The same float32 steps at base 1000: beyond float32 angles' tolerance, a mistake declared so.
    void otherBaseStaysAMistake()
    {
        QString said;
        QCOMPARE(check(tutorial(1000.0), {u"--angles"_s, u"float32"_s}, said), 1);
    }
};

POSENC_TEST_GUILESS_MAIN(CliDeclaredAngles)
} // namespace tst_clideclaredangles
#include "tst_clideclaredangles.moc"
