// `posenc check` against a model's learned table of positions as the reference:
// - `--expect learned --position-table W --position-offset o`: the table must be W's rows from o
//   (RoBERTa's padding_idx + 1: transformers' create_position_ids_from_input_ids, modeling_roberta.py;
//   a ViT's class token row 0), in the shapes dumped ([L, d], [1, L, d]); rows read from another
//   offset are position-offset (sentence-transformers#3879, labml's ViT #221), an offset past the
//   weight's rows refused naming --position-offset;
// - `--expect-table W` with a table of fewer rows: W's first rows;
// - `--resize-method`: a learned grid resized by the declared method is correct, by another the
//   mistake resize-method (mlx-vlm#1241: Keys' A = -0.5 where torch's bicubic takes A = -0.75).
// Every table is a float64 formula here, the resizes ATen's upsample_bicubic2d written from its code
// (support/CubicWeights.h), never the code under test.
#include "CliCheckRun.h"
#include "NpyBytes.h"
#include "support/CubicWeights.h"
#include "support/TestMain.h"

#include <QtTest>

#include <QTemporaryDir>

#include <algorithm>
#include <cmath>

namespace tst_clilearnedreference {
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 kRows = 40, kDim = 16;

// A learned weight's cell: no formula's table, neighbouring rows alike.
double weight(qint64 r, qint64 c)
{
    return 0.02 * std::sin(0.37 * double(r) + 1.3 * double(c * c % 7)) + 0.003 * std::cos(double(r * c));
}

std::vector<double> rows(qint64 first, qint64 count)
{
    std::vector<double> v;
    for (qint64 r = first; r < first + count; ++r) {
        for (qint64 c = 0; c < kDim; ++c)
            v.push_back(weight(r, c));
    }
    return v;
}

// An n x n grid of d columns resized to h x w by a bicubic of coefficient a (ATen's
// upsample_bicubic2d at align_corners=False: source (i + 0.5) n / h - 0.5, four taps clamped).
std::vector<double> bicubic(const std::vector<double> &grid, int n, int d, int h, int w, double a)
{
    const auto at = [&](int y, int x, int c) {
        return grid[std::size_t((std::clamp(y, 0, n - 1) * n + std::clamp(x, 0, n - 1)) * d + c)];
    };
    std::vector<double> out;
    for (int i = 0; i < h; ++i) {
        for (int j = 0; j < w; ++j) {
            const double ry = double(n) / h * (i + 0.5) - 0.5, rx = double(n) / w * (j + 0.5) - 0.5;
            const int y0 = int(std::floor(ry)), x0 = int(std::floor(rx));
            double wy[4], wx[4];
            resizeref::cubicWeights(ry - y0, a, wy);
            resizeref::cubicWeights(rx - x0, a, wx);
            for (int c = 0; c < d; ++c) {
                double v = 0.0;
                for (int p = 0; p < 4; ++p) {
                    for (int q = 0; q < 4; ++q)
                        v += wy[p] * wx[q] * at(y0 - 1 + p, x0 - 1 + q, c);
                }
                out.push_back(v);
            }
        }
    }
    return out;
}

} // namespace

class TestCliLearnedReference : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_weight, m_weight3;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_weight = CliCheck::write(m_dir, u"weight.npy"_s, npy({kRows, kDim}, rows(0, kRows)));
        m_weight3 = CliCheck::write(m_dir, u"weight3.npy"_s, npy({1, kRows, kDim}, rows(0, kRows)));
        QVERIFY(!m_weight.isEmpty() && !m_weight3.isEmpty());
    }

    // Each row: the table's first row of the weight, the declared offset, the weight's file shape,
    // the table's rank, and the verdict with the mistake.
    void againstPositionTable_data()
    {
        QTest::addColumn<qint64>("first");
        QTest::addColumn<qint64>("offset");
        QTest::addColumn<bool>("weight3d");
        QTest::addColumn<bool>("table3d");
        QTest::addColumn<QString>("verdict");
        QTest::addColumn<QString>("mistake");
        // RoBERTa's positions from padding_idx + 1 = 2.
        QTest::newRow("roberta rows") << qint64(2) << qint64(2) << false << true << u"correct"_s << QString();
        QTest::newRow("roberta rows, [1, N, d] weight")
            << qint64(2) << qint64(2) << true << false << u"correct"_s << QString();
        QTest::newRow("0-based ids") << qint64(0) << qint64(2) << false << true << u"mistake"_s << u"position-offset"_s;
        // A ViT's patches after the class token's row 0, and the class row taken for a patch.
        QTest::newRow("patches after cls") << qint64(1) << qint64(1) << true << false << u"correct"_s << QString();
        QTest::newRow("cls row taken") << qint64(0) << qint64(1) << true << false << u"mistake"_s
                                       << u"position-offset"_s;
        QTest::newRow("no offset declared") << qint64(0) << qint64(0) << false << false << u"correct"_s << QString();
    }
    void againstPositionTable()
    {
        QFETCH(qint64, first);
        QFETCH(qint64, offset);
        QFETCH(bool, weight3d);
        QFETCH(bool, table3d);
        QFETCH(QString, verdict);
        QFETCH(QString, mistake);
        const qint64 length = 32;
        const std::vector<std::int64_t> shape
            = table3d ? std::vector<std::int64_t> {1, length, kDim} : std::vector<std::int64_t> {length, kDim};
        const QString table
            = CliCheck::write(m_dir, u"t-%1-%2.npy"_s.arg(first).arg(offset), npy(shape, rows(first, length)));
        QVERIFY(!table.isEmpty());
        QStringList flags {u"--expect"_s, u"learned"_s, u"--position-table"_s, weight3d ? m_weight3 : m_weight};
        if (offset > 0)
            flags << u"--position-offset"_s << QString::number(offset);
        const CliCheck::Checked c = CliCheck::checkFile(table, flags);
        QVERIFY2(c.verdict() == verdict, qPrintable(c.shown));
        if (!mistake.isEmpty())
            QVERIFY2(c.mistakes().contains(mistake), qPrintable(c.shown));
        else
            QVERIFY2(c.mistakes().isEmpty(), qPrintable(c.shown));
    }

    // --expect-table with a weight of more rows: its first rows.
    void expectTableFirstRows()
    {
        const QString right = CliCheck::write(m_dir, u"first.npy"_s, npy({30, kDim}, rows(0, 30)));
        const QString moved = CliCheck::write(m_dir, u"moved.npy"_s, npy({30, kDim}, rows(2, 30)));
        QVERIFY(!right.isEmpty() && !moved.isEmpty());
        const CliCheck::Checked c = CliCheck::checkFile(right, {u"--expect-table"_s, m_weight});
        QVERIFY2(c.verdict() == u"correct"_s, qPrintable(c.shown));
        const CliCheck::Checked m = CliCheck::checkFile(moved, {u"--expect-table"_s, m_weight});
        QVERIFY2(m.verdict() == u"mistake"_s && m.mistakes().contains(u"position-offset"_s), qPrintable(m.shown));
    }

    // An offset whose rows the weight does not hold: refused, the flag named.
    void offsetPastTheWeightIsRefused()
    {
        const QString table = CliCheck::write(m_dir, u"long.npy"_s, npy({32, kDim}, rows(0, 32)));
        const CliRun::Run run = CliRun::posenc({u"check"_s, table, u"--expect"_s, u"learned"_s, u"--position-table"_s,
                                                m_weight, u"--position-offset"_s, u"20"_s});
        QVERIFY2(run.exitCode == 2 && run.err.contains(u"--position-offset"_s) && run.err.contains(u"40 rows"_s),
                 qPrintable(run.err));
    }

    // A learned 8 x 8 grid resized to 5 x 6 patches (a shrink, where Keys' cubic and the antialiased
    // one differ from torch's): by the declared bicubic correct, by Keys' A = -0.5 resize-method.
    void resizeMethodDeclared()
    {
        const int n = 8, d = 4, h = 5, w = 6;
        std::vector<double> grid;
        for (int y = 0; y < n; ++y) {
            for (int x = 0; x < n; ++x) {
                for (int c = 0; c < d; ++c)
                    grid.push_back(std::sin(0.7 * y + 0.3 * c) * std::cos(0.45 * x - 0.2 * c) + 0.1 * c);
            }
        }
        const QString g = CliCheck::write(m_dir, u"grid.npy"_s, npy({n * n, d}, grid));
        const QString torch = CliCheck::write(m_dir, u"torch.npy"_s, npy({h * w, d}, bicubic(grid, n, d, h, w, -0.75)));
        const QString keys = CliCheck::write(m_dir, u"keys.npy"_s, npy({h * w, d}, bicubic(grid, n, d, h, w, -0.5)));
        QVERIFY(!g.isEmpty() && !torch.isEmpty() && !keys.isEmpty());
        const QStringList declared {u"--expect-table"_s, g, u"--resize-method"_s, u"bicubic"_s};
        const CliCheck::Checked right = CliCheck::checkFile(torch, declared);
        QVERIFY2(right.verdict() == u"correct"_s, qPrintable(right.shown));
        const CliCheck::Checked wrong = CliCheck::checkFile(keys, declared);
        QVERIFY2(wrong.verdict() == u"mistake"_s && wrong.mistakes().contains(u"resize-method"_s)
                     && wrong.diagnosis().contains(u"A = -0.5"_s),
                 qPrintable(wrong.shown));
        // Undeclared, either resize is a variant naming its method, never a mistake.
        const CliCheck::Checked undeclared = CliCheck::checkFile(keys, {u"--expect-table"_s, g});
        QVERIFY2(undeclared.verdict() == u"variant"_s, qPrintable(undeclared.shown));
        // A method that is no word: refused naming the flag and its words.
        const CliRun::Run refused
            = CliRun::posenc({u"check"_s, keys, u"--expect-table"_s, g, u"--resize-method"_s, u"cubic"_s});
        QVERIFY2(refused.exitCode == 2 && refused.err.contains(u"--resize-method: one of"_s), qPrintable(refused.err));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliLearnedReference)
} // namespace tst_clilearnedreference
#include "tst_clilearnedreference.moc"
