// `posenc check` of HunyuanImage 3.0's 2-D RoPE (Tencent-Hunyuan/HunyuanImage-3.0,
// hunyuan_image_3/modeling_hunyuan_image_3.py, build_2d_rope): theta = 1 / base^(arange(0, d, 2) / d) reshaped
// (1, d/4, 2) times the ids (y, x), so pair k turns with the row where k is even and with the column
// where it is odd, then idx_theta.repeat(1, 2); an image of h x w placed after L tokens has ids from
// beta_y = L + (wh - h)/2, beta_x = L + (wh - w)/2. Declared as --rope-2d-style hunyuan with
// --rope-2d-origin its table is correct; vLLM's table before vllm-project/vllm-omni#1784 (M-RoPE's
// contiguous sections: pairs 0..d/4-1 the row, the rest the column, the same frequencies) is the
// mistake rope2d-pair-axes. Tables are float64 formulas here.
#include "CheckReportText.h"
#include "CliRun.h"
#include "support/TestMain.h"

#include <QtTest>

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cmath>

namespace tst_clirope2dhunyuan {
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 kHeadDim = 128;

// The cos table of an h x w image after `before` tokens: build_2d_rope's, or vLLM's sections.
double cell(qint64 n, qint64 c, qint64 h, qint64 w, qint64 before, bool sections)
{
    const double betaY = double(before) + double(w * h - h) / 2.0, betaX = double(before) + double(w * h - w) / 2.0;
    const double y = betaY + double(n / w), x = betaX + double(n % w);
    const qint64 k = c % (kHeadDim / 2);
    const bool row = sections ? k < kHeadDim / 4 : k % 2 == 0;
    return std::cos((row ? y : x) * std::pow(10000.0, -2.0 * double(k) / double(kHeadDim)));
}

using CheckReportText::mistakesOf;
using CheckReportText::shown;

} // namespace

class TestCliRope2dHunyuan : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    CliRun::TableFiles m_tables {m_dir.path()};

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // Each row: the image's grid and the tokens before it, and the origin (beta_y, beta_x) declared.
    void hunyuanDeclared_data()
    {
        QTest::addColumn<qint64>("h");
        QTest::addColumn<qint64>("w");
        QTest::addColumn<qint64>("before");
        QTest::addColumn<QString>("origin");
        QTest::newRow("8 x 8, first") << qint64(8) << qint64(8) << qint64(0) << u"28,28"_s;
        QTest::newRow("6 x 10 after 5 tokens") << qint64(6) << qint64(10) << qint64(5) << u"32,30"_s;
    }
    void hunyuanDeclared()
    {
        QFETCH(qint64, h);
        QFETCH(qint64, w);
        QFETCH(qint64, before);
        QFETCH(QString, origin);
        const QString fixed
            = m_tables.written(h * w, kHeadDim, [&](qint64 n, qint64 c) { return cell(n, c, h, w, before, false); });
        const QString buggy
            = m_tables.written(h * w, kHeadDim, [&](qint64 n, qint64 c) { return cell(n, c, h, w, before, true); });
        QVERIFY(!fixed.isEmpty() && !buggy.isEmpty());
        const QStringList declared {u"--expect"_s,         u"rope-2d"_s,
                                    u"--rope-2d-style"_s,  u"hunyuan"_s,
                                    u"--grid"_s,           u"%1,%2"_s.arg(h).arg(w),
                                    u"--head-dim"_s,       QString::number(kHeadDim),
                                    u"--rope-2d-origin"_s, origin};
        const QJsonObject f = CliRun::checked(fixed, declared);
        QVERIFY2(f[u"verdict"_s].toString() == u"correct"_s, qPrintable(shown(f)));
        // The ids from 0 where the image's start at its origin: not correct.
        const QJsonObject fromZero = CliRun::checked(fixed, declared.mid(0, declared.size() - 2));
        QVERIFY2(fromZero[u"verdict"_s].toString() == u"mistake"_s, qPrintable(shown(fromZero)));
        // vLLM's contiguous sections: the pairs named, with the split found and the declared one.
        const QJsonObject b = CliRun::checked(buggy, declared);
        QVERIFY2(b[u"verdict"_s].toString() == u"mistake"_s && mistakesOf(b) == QStringList {u"rope2d-pair-axes"_s},
                 qPrintable(shown(b)));
        const QString d = b[u"diagnosis"_s].toString();
        QVERIFY2(d.contains(u"pairs 0..31 with the row, pairs 32..63 with the column"_s)
                     && d.contains(u"even pairs with the row, odd ones with the column"_s),
                 qPrintable(shown(b)));
        // Undeclared, neither is called a mistake (no form the check reads gives them).
        QVERIFY2(CliRun::checked(fixed, {})[u"verdict"_s].toString() != u"mistake"_s, "fixed undeclared");
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliRope2dHunyuan)
} // namespace tst_clirope2dhunyuan
#include "tst_clirope2dhunyuan.moc"
