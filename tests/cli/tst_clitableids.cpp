// posenc check TABLE --position-ids IDS for M-RoPE and 2-D tables (issue 56: "M-RoPE and 2-D tables
// with the positions they were made for: --position-ids FILE ([3, L] t/h/w ids as get_rope_index
// returns them, [L, 2] row/column ids for a 2-D grid)"). The tables and the ids are written here
// from the reference code, never from posenc's:
// - Qwen3-VL's text rotary embedding (huggingface/transformers models/qwen3_vl/modeling_qwen3_vl.py,
//   Qwen3VLTextRotaryEmbedding: inv_freq in float32, freqs = inv_freq @ position_ids in float32,
//   apply_interleaved_mrope over mrope_section [24, 20, 20], emb = cat(freqs, freqs), cos), at
//   get_rope_index's ids of the prompt text:6, image 1 x 16 x 24 (8 x 12 merged tokens), text:10:
//   text k at (k, k, k), the image's token (y, x) at (6, 6 + y, 6 + x), the text after it from 18 on;
//   the same with Qwen2-VL's chunked sections (apply_multimodal_rotary_pos_emb) is vllm-gaudi#1437's
//   mistake;
// - Pixtral 12B's vision encoder's 2-D RoPE (models/pixtral/modeling_pixtral.py,
//   PixtralRotaryEmbedding at head_dim 64, rope_theta 10000: freqs = 1 / theta^(arange(0, 64, 2) / 64),
//   the rows' pairs freqs[::2], the columns' freqs[1::2], cat((inv_freq, inv_freq)); and
//   position_ids_in_meshgrid, row by row) on a 4 x 6 grid, its ids (row, column) row by row;
// - and a sinusoid of a later chunk, whose ids past 0 only a declared RoPE reads.
#include "CliRun.h"
#include "NpyBytes.h"
#include "support/TestMain.h"

#include <QtTest>

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <array>
#include <cmath>
#include <vector>

namespace tst_clitableids {
using namespace Qt::StringLiterals;
using CliRun::posenc;
using CliRun::Run;

namespace {

using Id = std::array<std::int64_t, 3>; // t, h, w

std::vector<Id> promptIds()
{
    std::vector<Id> ids;
    for (std::int64_t k = 0; k < 6; ++k)
        ids.push_back({k, k, k});
    for (std::int64_t y = 0; y < 8; ++y)
        for (std::int64_t x = 0; x < 12; ++x)
            ids.push_back({6, 6 + y, 6 + x});
    for (std::int64_t k = 0; k < 10; ++k)
        ids.push_back({18 + k, 18 + k, 18 + k});
    return ids;
}

// The cos table at `ids`: interleaved sections (Qwen3-VL's) or chunked (Qwen2-VL's 24, 20, 20).
std::vector<double> qwen3VlCos(const std::vector<Id> &ids, bool chunked)
{
    constexpr std::int64_t pairs = 64;
    std::vector<double> v;
    for (const Id &id : ids) {
        for (std::int64_t c = 0; c < 2 * pairs; ++c) {
            const std::int64_t j = c % pairs;
            int axis = 0;
            if (chunked)
                axis = j < 24 ? 0 : j < 44 ? 1 : 2;
            else if (j % 3 == 1 && j < 3 * 20)
                axis = 1;
            else if (j % 3 == 2 && j < 3 * 20)
                axis = 2;
            const float inv = float(1.0 / std::pow(5000000.0, double(2 * j) / double(2 * pairs)));
            const float angle = float(id[std::size_t(axis)]) * inv;
            v.push_back(std::cos(double(angle)));
        }
    }
    return v;
}

// [3, L]: t's ids, then h's, then w's.
std::vector<double> threeAxes(const std::vector<Id> &ids)
{
    std::vector<double> v;
    for (int a = 0; a < 3; ++a)
        for (const Id &id : ids)
            v.push_back(double(id[std::size_t(a)]));
    return v;
}

QString write(const QTemporaryDir &dir, const QString &name, const std::vector<std::int64_t> &shape,
              const std::vector<double> &values)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(npy(shape, values)) < 0)
        return {};
    return path;
}

QJsonObject report(const Run &run)
{
    return QJsonDocument::fromJson(run.out.toUtf8()).object();
}

const QStringList kQwen3Vl {u"--expect"_s, u"mrope"_s, u"--preset"_s, u"qwen3-vl-8b"_s, u"--json"_s};

constexpr std::int64_t kRows = 4, kCols = 6;

// Pixtral 12B's vision encoder's cos table of patches (row, column): 16 pairs turn with the row,
// then 16 with the column.
std::vector<double> pixtralCos(const std::vector<std::pair<std::int64_t, std::int64_t>> &patches)
{
    std::vector<double> v;
    for (const auto &[row, column] : patches)
        for (std::int64_t c = 0; c < 64; ++c) {
            const std::int64_t pair = c % 32;
            const std::int64_t k = pair < 16 ? 2 * pair : 2 * (pair - 16) + 1;
            const double inv = 1.0 / std::pow(10000.0, double(2 * k) / 64.0);
            v.push_back(std::cos(double(pair < 16 ? row : column) * inv));
        }
    return v;
}

std::vector<std::pair<std::int64_t, std::int64_t>> rowByRow(std::int64_t h, std::int64_t w)
{
    std::vector<std::pair<std::int64_t, std::int64_t>> patches;
    for (std::int64_t n = 0; n < h * w; ++n)
        patches.push_back({n / w, n % w});
    return patches;
}

std::vector<double> flat(const std::vector<std::pair<std::int64_t, std::int64_t>> &patches)
{
    std::vector<double> v;
    for (const auto &[row, column] : patches) {
        v.push_back(double(row));
        v.push_back(double(column));
    }
    return v;
}

const QStringList kPixtral {u"--expect"_s, u"rope-2d"_s, u"--preset"_s, u"pixtral-12b-vision"_s, u"--json"_s};

} // namespace

class TestCliTableIds : public QObject
{
    Q_OBJECT

private slots:
    // [3, L] ids stand for the prompt they lay out: the table at them correct, Qwen2-VL's chunked
    // sections at them named, as with --prompt.
    void mropeIdsDeclareTheirPrompt()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::vector<Id> ids = promptIds();
        const auto L = std::int64_t(ids.size());
        const QString idsPath = write(dir, u"ids.npy"_s, {3, L}, threeAxes(ids));
        const QString right = write(dir, u"right.npy"_s, {L, 128}, qwen3VlCos(ids, false));
        const QString chunked = write(dir, u"chunked.npy"_s, {L, 128}, qwen3VlCos(ids, true));
        QVERIFY(!idsPath.isEmpty() && !right.isEmpty() && !chunked.isEmpty());

        const Run correct = posenc(QStringList {u"check"_s, right, u"--position-ids"_s, idsPath} + kQwen3Vl);
        QVERIFY2(correct.exitCode == 0, qPrintable(correct.out + correct.err));
        QCOMPARE(report(correct).value(u"verdict"_s).toString(), u"correct"_s);
        QVERIFY2(report(correct).value(u"diagnosis"_s).toString().contains(u"text:6,image:1x16x24,text:10"_s),
                 qPrintable(correct.out));

        const Run wrong = posenc(QStringList {u"check"_s, chunked, u"--position-ids"_s, idsPath} + kQwen3Vl);
        QVERIFY2(wrong.exitCode == 1, qPrintable(wrong.out + wrong.err));
        QVERIFY2(report(wrong).value(u"mistakes"_s).toVariant().toStringList().contains(u"mrope-interleave-swapped"_s),
                 qPrintable(wrong.out));

        // A Qwen-VL config declares the model as --expect mrope --preset does.
        const Run config = posenc({u"check"_s, right, u"--position-ids"_s, idsPath, u"--expect-config"_s,
                                   QStringLiteral(POSENC_CONFIGS "/Qwen3-VL-8B-Instruct.json"), u"--json"_s});
        QVERIFY2(config.exitCode == 0, qPrintable(config.out + config.err));

        // [3, 1, L], get_rope_index's own shape for one row, reads the same.
        const QString batchOfOne = write(dir, u"ids31.npy"_s, {3, 1, L}, threeAxes(ids));
        const Run one = posenc(QStringList {u"check"_s, right, u"--position-ids"_s, batchOfOne} + kQwen3Vl);
        QVERIFY2(one.exitCode == 0, qPrintable(one.out + one.err));
    }

    // A declared M-RoPE with no prompt (the preset's is its figures' demo): the correct table is
    // unknown at its own ids, never a mistake against a prompt nobody gave; the chunked one is
    // still a mistake.
    void noPromptIsNoMistake()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::vector<Id> ids = promptIds();
        const auto L = std::int64_t(ids.size());
        const QString right = write(dir, u"right.npy"_s, {L, 128}, qwen3VlCos(ids, false));
        const QString chunked = write(dir, u"chunked.npy"_s, {L, 128}, qwen3VlCos(ids, true));
        const Run own = posenc(QStringList {u"check"_s, right} + kQwen3Vl);
        QVERIFY2(own.exitCode == 7, qPrintable(own.out + own.err));
        QVERIFY2(report(own).value(u"diagnosis"_s).toString().contains(u"no prompt is declared"_s),
                 qPrintable(own.out));
        const Run wrong = posenc(QStringList {u"check"_s, chunked} + kQwen3Vl);
        QVERIFY2(wrong.exitCode == 1, qPrintable(wrong.out + wrong.err));
    }

    // Without a declared M-RoPE, or with ids no prompt gives (h and w held at one id, mstar#196's
    // audio tokens), one line on the usage exit code.
    void mropeIdsRefusedWithTheReason()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::vector<Id> ids = promptIds();
        const auto L = std::int64_t(ids.size());
        const QString idsPath = write(dir, u"ids.npy"_s, {3, L}, threeAxes(ids));
        const QString right = write(dir, u"right.npy"_s, {L, 128}, qwen3VlCos(ids, false));
        const Run undeclared = posenc({u"check"_s, right, u"--position-ids"_s, idsPath});
        QCOMPARE(undeclared.exitCode, 2);
        QVERIFY2(undeclared.err.contains(u"--expect mrope"_s)
                     && undeclared.err.contains(u"text:6,image:1x16x24,text:10"_s) && undeclared.err.count(u'\n') == 1,
                 qPrintable(undeclared.err));

        // Another family declared, or the ids transposed: one line each, no flag the user did not give.
        const Run otherFamily = posenc({u"check"_s, right, u"--position-ids"_s, idsPath, u"--expect"_s, u"rope-2d"_s});
        QCOMPARE(otherFamily.exitCode, 2);
        QVERIFY2(otherFamily.err.contains(u"--expect rope-2d declares another family"_s)
                     && !otherFamily.err.contains(u"--prompt"_s) && otherFamily.err.count(u'\n') == 1,
                 qPrintable(otherFamily.err));
        std::vector<double> transposed;
        for (const Id &id : ids)
            transposed.insert(transposed.end(), {double(id[0]), double(id[1]), double(id[2])});
        const QString lByThree = write(dir, u"ids-l3.npy"_s, {L, 3}, transposed);
        const Run turned = posenc(QStringList {u"check"_s, right, u"--position-ids"_s, lByThree} + kQwen3Vl);
        QCOMPARE(turned.exitCode, 2);
        QVERIFY2(turned.err.contains(u"[3, %1]"_s.arg(L)) && turned.err.contains(u"transpose"_s),
                 qPrintable(turned.err));

        std::vector<Id> held = ids;
        for (std::size_t k = 6; k < 6 + 96; ++k)
            held[k] = {std::int64_t(k), 6, 6};
        const QString heldPath = write(dir, u"held.npy"_s, {3, L}, threeAxes(held));
        const Run refused = posenc(QStringList {u"check"_s, right, u"--position-ids"_s, heldPath} + kQwen3Vl);
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.contains(u"not get_rope_index's for any prompt"_s) && refused.err.count(u'\n') == 1,
                 qPrintable(refused.err));
    }

    // [L, 2] ids of a grid row by row stand for --grid H,W: Pixtral's table at them correct, the
    // table of the grid turned (6 x 4) a mistake; ids in another order are refused.
    void gridIdsDeclareTheirGrid()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto patches = rowByRow(kRows, kCols);
        const QString idsPath = write(dir, u"ids.npy"_s, {kRows * kCols, 2}, flat(patches));
        const QString right = write(dir, u"right.npy"_s, {kRows * kCols, 64}, pixtralCos(patches));
        const QString turned = write(dir, u"turned.npy"_s, {kRows * kCols, 64}, pixtralCos(rowByRow(kCols, kRows)));
        QVERIFY(!idsPath.isEmpty() && !right.isEmpty() && !turned.isEmpty());

        const Run correct = posenc(QStringList {u"check"_s, right, u"--position-ids"_s, idsPath} + kPixtral);
        QVERIFY2(correct.exitCode == 0, qPrintable(correct.out + correct.err));
        QCOMPARE(report(correct).value(u"grid"_s).toString(), u"4x6"_s);

        const Run wrong = posenc(QStringList {u"check"_s, turned, u"--position-ids"_s, idsPath} + kPixtral);
        QVERIFY2(wrong.exitCode == 1, qPrintable(wrong.out + wrong.err));

        std::vector<std::pair<std::int64_t, std::int64_t>> columnwise;
        for (std::int64_t n = 0; n < kRows * kCols; ++n)
            columnwise.push_back({n % kRows, n / kRows});
        const QString otherOrder = write(dir, u"columnwise.npy"_s, {kRows * kCols, 2}, flat(columnwise));
        const Run refused = posenc(QStringList {u"check"_s, right, u"--position-ids"_s, otherOrder} + kPixtral);
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.contains(u"row by row"_s) && refused.err.count(u'\n') == 1, qPrintable(refused.err));

        const Run undeclared = posenc({u"check"_s, right, u"--position-ids"_s, idsPath});
        QCOMPARE(undeclared.exitCode, 2);
        QVERIFY2(undeclared.err.contains(u"4 x 6"_s) && undeclared.err.contains(u"--expect rope-2d"_s),
                 qPrintable(undeclared.err));
    }

    // A table of a later chunk (positions 1000..1031) with its ids: a first position past 0 is read
    // against a declared RoPE only (RopeRowPositions); any other reading would take the rows from 0
    // and call the paper's own sinusoid (sin(p w_i), cos(p w_i), w_i = 10000^(-2i/d), written here in
    // float64) at those positions position-offset. Refused on the usage exit code, naming the ids.
    // Rows at ids from 1000 (a cached step's, a chunked prefill's), each family's reading: RoPE's
    // reads them from the ids' first position undeclared as declared (HF's cos, modeling_llama.py
    // LlamaRotaryEmbedding.forward at position_ids 1000..1031, written here in float64): its own
    // table is correct, Llama 2's table at rows 0..31 is never correct there, and a LongRoPE list the
    // ids' sequence does not take is longrope-factor-set. The sinusoid's reading starts at 0: undeclared
    // it gives no verdict on such rows (unknown, said), declared it is refused, as before.
    void laterChunkPerFamily()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        constexpr std::int64_t first = 1000, rows = 32, d = 16, head = 128;
        std::vector<double> sinusoid, rope, ropeFromZero, ids;
        for (std::int64_t r = 0; r < rows; ++r) {
            const double p = double(first + r);
            ids.push_back(p);
            for (std::int64_t i = 0; i < d / 2; ++i) {
                const double w = std::pow(10000.0, -double(2 * i) / double(d));
                sinusoid.push_back(std::sin(p * w));
                sinusoid.push_back(std::cos(p * w));
            }
            for (std::int64_t c = 0; c < head; ++c) {
                const double w = std::pow(10000.0, -double(2 * (c % (head / 2))) / double(head));
                rope.push_back(std::cos(p * w));
                ropeFromZero.push_back(std::cos(double(r) * w));
            }
        }
        const QString at = write(dir, u"ids.npy"_s, {rows}, ids);
        const auto run = [&](const QString &file, const QStringList &flags) {
            const Run r = posenc(QStringList {u"check"_s, file, u"--position-ids"_s, at, u"--json"_s} + flags);
            return std::pair {r, QJsonDocument::fromJson(r.out.toUtf8()).object()};
        };
        const QString llama = write(dir, u"rope.npy"_s, {rows, head}, rope);
        for (const QStringList &declared :
             {QStringList(), QStringList {u"--expect"_s, u"rope"_s, u"--preset"_s, u"llama-2-7b"_s}}) {
            const auto [r, json] = run(llama, declared);
            QVERIFY2(r.exitCode == 0 && json[u"verdict"_s].toString() == u"correct"_s, qPrintable(r.out + r.err));
        }
        const auto [zero, zeroJson] = run(write(dir, u"zero.npy"_s, {rows, head}, ropeFromZero), {});
        QVERIFY2(zero.exitCode != 0 && zero.exitCode != 2, qPrintable(zero.out + zero.err));
        const auto [declaredZero, dz] = run(write(dir, u"zero2.npy"_s, {rows, head}, ropeFromZero),
                                            {u"--expect"_s, u"rope"_s, u"--preset"_s, u"llama-2-7b"_s});
        QVERIFY2(declaredZero.exitCode == 1, qPrintable(declaredZero.out + declaredZero.err));
        // The sinusoid's reading starts at the ids' first too: its chunk correct undeclared and
        // declared, its rows from 0 at those ids position-offset with both starts.
        const QString pe = write(dir, u"chunk.npy"_s, {rows, d}, sinusoid);
        for (const QStringList &declared : {QStringList(), QStringList {u"--expect"_s, u"sinusoidal"_s}}) {
            const auto [r, json] = run(pe, declared);
            QVERIFY2(r.exitCode == 0 && json[u"verdict"_s].toString() == u"correct"_s, qPrintable(r.out + r.err));
        }
        std::vector<double> sinusoidFromZero;
        for (std::int64_t r = 0; r < rows; ++r)
            for (std::int64_t i = 0; i < d / 2; ++i) {
                const double w = std::pow(10000.0, -double(2 * i) / double(d));
                sinusoidFromZero.push_back(std::sin(double(r) * w));
                sinusoidFromZero.push_back(std::cos(double(r) * w));
            }
        const auto [offset, offsetJson] = run(write(dir, u"pe0.npy"_s, {rows, d}, sinusoidFromZero), {});
        QVERIFY2(offset.exitCode == 1 && offsetJson[u"mistakes"_s].toArray().contains(u"position-offset"_s)
                     && offsetJson[u"diagnosis"_s].toString().contains(u"start at 0 where the declared positions start at 1000"_s),
                 qPrintable(offset.out + offset.err));
        // A family whose reading starts at 0 is refused such ids, the families that read them named.
        const Run refused = posenc({u"check"_s, pe, u"--position-ids"_s, at, u"--expect"_s, u"alibi"_s});
        QVERIFY2(refused.exitCode == 2 && refused.err.contains(u"--position-ids: the ids start at 1000"_s)
                     && refused.err.contains(u"sinusoidal"_s) && refused.out.isEmpty(),
                 qPrintable(refused.err));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliTableIds)
} // namespace tst_clitableids
#include "tst_clitableids.moc"
