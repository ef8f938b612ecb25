// `posenc check TABLE --position-ids IDS --expect rope-2d --rope-2d-style qwen-vit` with the Qwen-VL
// vision encoder's own ids (issue 56, "M-RoPE and 2-D tables with the positions they were made
// for"; REPORT-r34 findings 3 and 3b). Written here in float64 from transformers
// models/qwen2_5_vl/modeling_qwen2_5_vl.py, Qwen2_5_VisionTransformerPretrainedModel:
// - rot_pos_emb: hpos_ids and wpos_ids of an h x w grid reshaped (h / m, m, w / m, m), permuted
//   (0, 2, 1, 3) and flattened (m = spatial_merge_size 2): the patches in 2 x 2 merge blocks;
//   VisionRotaryEmbedding(head_dim / 2): inv_freq = 1 / 10000^(arange(0, 40, 2) / 40) at head_dim 80,
//   row i's angles cat(ids_h inv_freq, ids_w inv_freq), then forward's cat((rpe, rpe)).cos();
// - get_window_index (window_size 112, patch_size 14: windows of 4 x 4 merge blocks, padded, the
//   padding dropped) and forward's rotary_pos_emb[window_index, :, :], which reorders whole blocks.
// The model's own [L, 2] pos_ids, in either order, are the rows' ids: correct at them; a window-order
// dump checked against --grid alone (rot_pos_emb's order) is unknown with the reason, never a mistake.
#include "CliCheckRun.h"
#include "NpyBytes.h"
#include "support/TestMain.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <utility>
#include <vector>

namespace tst_clivitids {
using namespace Qt::StringLiterals;

namespace {

using CliCheck::Checked;

constexpr std::int64_t kH = 12, kW = 20, kMerge = 2, kHead = 80;

// rot_pos_emb's (h, w) of each row, merge blocks in order.
std::vector<std::pair<std::int64_t, std::int64_t>> mergeOrder()
{
    std::vector<std::pair<std::int64_t, std::int64_t>> ids;
    for (std::int64_t a = 0; a < kH / kMerge; ++a)
        for (std::int64_t b = 0; b < kW / kMerge; ++b)
            for (std::int64_t i = 0; i < kMerge; ++i)
                for (std::int64_t j = 0; j < kMerge; ++j)
                    ids.emplace_back(a * kMerge + i, b * kMerge + j);
    return ids;
}

// get_window_index's order of the merge blocks (4 x 4 blocks a window), applied to rot_pos_emb's rows.
std::vector<std::pair<std::int64_t, std::int64_t>> windowOrder()
{
    constexpr std::int64_t window = 112 / kMerge / 14;
    const std::int64_t bh = kH / kMerge, bw = kW / kMerge;
    const auto rows = mergeOrder();
    std::vector<std::pair<std::int64_t, std::int64_t>> ids;
    for (std::int64_t a = 0; a < (bh + window - 1) / window; ++a)
        for (std::int64_t b = 0; b < (bw + window - 1) / window; ++b)
            for (std::int64_t i = 0; i < window; ++i)
                for (std::int64_t j = 0; j < window; ++j) {
                    const std::int64_t r = a * window + i, c = b * window + j;
                    if (r >= bh || c >= bw)
                        continue;
                    for (std::int64_t k = 0; k < kMerge * kMerge; ++k)
                        ids.push_back(rows[std::size_t((r * bw + c) * kMerge * kMerge + k)]);
                }
    return ids;
}

std::vector<double> cosTable(const std::vector<std::pair<std::int64_t, std::int64_t>> &ids, double theta = 10000.0)
{
    constexpr std::int64_t dim = kHead / 2, freqs = dim / 2;
    std::vector<double> v;
    for (const auto &[h, w] : ids)
        for (std::int64_t c = 0; c < kHead; ++c) {
            const std::int64_t k = c % dim;
            const double inv = 1.0 / std::pow(theta, double(2 * (k % freqs)) / double(dim));
            v.push_back(std::cos(double(k < freqs ? h : w) * inv));
        }
    return v;
}

std::vector<double> idValues(const std::vector<std::pair<std::int64_t, std::int64_t>> &ids)
{
    std::vector<double> v;
    for (const auto &[h, w] : ids) {
        v.push_back(double(h));
        v.push_back(double(w));
    }
    return v;
}

const QStringList kQwenVit {u"--expect"_s, u"rope-2d"_s, u"--rope-2d-style"_s, u"qwen-vit"_s, u"--head-dim"_s, u"80"_s};

} // namespace

class TestCliVitIds : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString written(const QString &name, const std::vector<std::int64_t> &shape, const std::vector<double> &v)
    {
        return CliCheck::write(m_dir, name, npy(shape, v));
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void theEncodersOwnIdsAreTheRowsIds_data()
    {
        QTest::addColumn<bool>("windows");
        QTest::newRow("rot_pos_emb's merge blocks") << false;
        QTest::newRow("get_window_index's windows") << true;
    }

    void theEncodersOwnIdsAreTheRowsIds()
    {
        QFETCH(bool, windows);
        const auto ids = windows ? windowOrder() : mergeOrder();
        const QString table = written(u"vit.npy"_s, {kH * kW, kHead}, cosTable(ids));
        const QString idsFile = written(u"ids.npy"_s, {kH * kW, 2}, idValues(ids));
        const Checked got = CliCheck::checkFile(table, QStringList {u"--position-ids"_s, idsFile} + kQwenVit);
        QVERIFY2(got.exit == 0, qPrintable(got.shown));
        // The same table at another theta: the parameter named at the ids.
        const QString theta = written(u"vit_theta.npy"_s, {kH * kW, kHead}, cosTable(ids, 1e6));
        const Checked wrong = CliCheck::checkFile(theta, QStringList {u"--position-ids"_s, idsFile} + kQwenVit);
        QVERIFY2(wrong.exit == 1 && CliCheck::named(wrong.json, {u"rope-theta"_s}), qPrintable(wrong.shown));
    }

    // The window order against the grid alone, which declares rot_pos_emb's order: unknown, said.
    void aWindowOrderDumpAgainstTheGridIsUnknown()
    {
        const QString table = written(u"vitw.npy"_s, {kH * kW, kHead}, cosTable(windowOrder()));
        const Checked got = CliCheck::checkFile(table, QStringList {u"--grid"_s, u"12,20"_s} + kQwenVit);
        QVERIFY2(got.exit == 7 && got.verdict() == u"unknown"_s, qPrintable(got.shown));
        QVERIFY2(got.diagnosis().contains(u"get_window_index: windows of 4 x 4 blocks"_s), qPrintable(got.shown));
        // Its blocks in an order no window gives (reversed): no published order, the mistake stays.
        auto reversed = mergeOrder();
        for (std::size_t b = 0; b < reversed.size() / 8; ++b)
            for (std::size_t k = 0; k < 4; ++k)
                std::swap(reversed[4 * b + k], reversed[reversed.size() - 4 * (b + 1) + k]);
        const QString shuffled = written(u"vitr.npy"_s, {kH * kW, kHead}, cosTable(reversed));
        const Checked other = CliCheck::checkFile(shuffled, QStringList {u"--grid"_s, u"12,20"_s} + kQwenVit);
        QVERIFY2(other.exit == 1, qPrintable(other.shown));
    }

    // A 2-D RoPE table's rows are a patch grid's, each at a (row, column) id pair, not positions of
    // a sequence: --positions is refused in one line (exit 2), declared or read undeclared, as on a
    // 2-D sin-cos table; --grid and --position-ids [L, 2] give its rows' ids.
    void positionsAreRefusedOnAPatchGrid()
    {
        const QString table = written(u"vitp.npy"_s, {kH * kW, kHead}, cosTable(mergeOrder()));
        const QStringList window {u"--positions"_s, u"0:240"_s};
        for (const QStringList &flags : {QStringList {u"--grid"_s, u"12,20"_s} + kQwenVit, QStringList()}) {
            const Checked got = CliCheck::checkFile(table, flags + window);
            QVERIFY2(got.exit == 2 && got.shown.contains(u"--positions:"_s) && got.shown.contains(u"2-D RoPE"_s)
                         && got.shown.trimmed().count(u'\n') == 0,
                     qPrintable(got.shown));
        }
        const Checked own = CliCheck::checkFile(table, QStringList {u"--grid"_s, u"12,20"_s} + kQwenVit);
        QVERIFY2(own.exit == 0, qPrintable(own.shown));
    }

    // Merge-block ids declare the qwen-vit style: another style or no family is refused in one line.
    void mergeBlockIdsWithAnotherStyleAreRefused()
    {
        const auto ids = mergeOrder();
        const QString table = written(u"vit.npy"_s, {kH * kW, kHead}, cosTable(ids));
        const QString idsFile = written(u"ids.npy"_s, {kH * kW, 2}, idValues(ids));
        for (const QStringList &flags :
             {QStringList {u"--expect"_s, u"rope-2d"_s, u"--rope-2d-style"_s, u"pixtral"_s, u"--head-dim"_s, u"80"_s},
              QStringList {}}) {
            const CliRun::Run run
                = CliRun::posenc(QStringList {u"check"_s, table, u"--position-ids"_s, idsFile} + flags);
            QVERIFY2(run.exitCode == 2, qPrintable(run.out + run.err));
            QCOMPARE(run.err.count(u'\n'), 1);
            QVERIFY2(run.err.contains(u"blocks of 2 x 2 patches"_s), qPrintable(run.err));
        }
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliVitIds)
} // namespace tst_clivitids
#include "tst_clivitids.moc"
