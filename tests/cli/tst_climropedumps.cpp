// posenc check of M-RoPE tensors as engineers dump them from transformers (issue 56, "A verdict
// that holds on the tensors engineers dump"). Every table and id array is written here from the
// reference code, never from posenc's:
// - the ids: huggingface/transformers models/qwen2_vl/modeling_qwen2_vl.py, Qwen2VLModel.get_rope_index
//   (4.x: text at arange(n) + st_idx on the three axes; a grid at stack([t, h, w]) + st_idx, w
//   fastest; st_idx = the ids' max + 1 after each span), with Qwen2.5-VL's video time
//   (models/qwen2_5_vl/modeling_qwen2_5_vl.py, get_rope_index: t_index = (arange(T) *
//   second_per_grid_t * tokens_per_second).long()); left padding's ids 1 (position_ids =
//   torch.ones(...), only the attention mask's tokens filled);
// - the cos: Qwen2VLRotaryEmbedding.forward (inv_freq = 1 / theta^(2j / d) in float32, freqs =
//   inv_freq @ position_ids in float32, one [3, B, L, d] cos per axis, emb = cat(freqs, freqs)), then
//   apply_multimodal_rotary_pos_emb's merge (mrope_section * 2 chunks, chunk i from axis i % 3);
//   Qwen3-VL's apply_interleaved_mrope (models/qwen3_vl/modeling_qwen3_vl.py: h at pairs 1 mod 3
//   below 3 s_h, w at 2 mod 3 below 3 s_w, t the rest).
#include "CliCheckRun.h"
#include "MropeDumps.h"
#include "NpyBytes.h"
#include "support/TestMain.h"

#include <QtTest>

#include <array>
#include <cmath>
#include <vector>

namespace tst_climropedumps {
using namespace Qt::StringLiterals;
using CliCheck::checkFile;
using CliCheck::write;

using namespace MropeDumps;

class TestCliMropeDumps : public QObject
{
    Q_OBJECT

private slots:
    // A declared M-RoPE whose table differs only in rope_theta: rope-theta named with both values
    // (REPORT-r34 #6, #6b), declared by a preset, left at the default, or with no prompt declared.
    void thetaNamedWithBothValues()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::vector<Id> ids = ropeIndex({text(20), grid(1, 14, 14), text(9)});
        const auto L = std::int64_t(ids.size());
        const QString idsPath = saved(dir, u"ids.npy"_s, {3, L}, threeAxes(ids));
        const QString at1e4 = saved(dir, u"q2-1e4.npy"_s, {L, 128}, mropeCos(ids, 1e4, kQwen2, false));
        const QString at1e6 = saved(dir, u"q2-1e6.npy"_s, {L, 128}, mropeCos(ids, 1e6, kQwen2, false));
        const QString q3at1e6 = saved(dir, u"q3-1e6.npy"_s, {L, 128}, mropeCos(ids, 1e6, kQwen3, true));
        QVERIFY(!idsPath.isEmpty() && !at1e4.isEmpty() && !at1e6.isEmpty() && !q3at1e6.isEmpty());

        const auto c = checkFile(
            at1e4, {u"--position-ids"_s, idsPath, u"--expect"_s, u"mrope"_s, u"--preset"_s, u"qwen2-vl-7b"_s});
        QVERIFY2(c.exit == 1 && mistakesOf(c) == QStringList {u"rope-theta"_s}, qPrintable(c.shown));
        QVERIFY2(c.diagnosis().contains(
                     u"the declared reference but rope_theta 10000 where the declaration gives 1000000"_s),
                 qPrintable(c.shown));

        const auto q3 = checkFile(
            q3at1e6, {u"--position-ids"_s, idsPath, u"--expect"_s, u"mrope"_s, u"--preset"_s, u"qwen3-vl-8b"_s});
        QVERIFY2(q3.exit == 1 && mistakesOf(q3) == QStringList {u"rope-theta"_s}, qPrintable(q3.shown));
        QVERIFY2(q3.diagnosis().contains(u"rope_theta 1000000 where the declaration gives 5000000"_s),
                 qPrintable(q3.shown));

        // No preset: the default rope_theta 10000, said not declared.
        const auto bare = checkFile(at1e6, {u"--position-ids"_s, idsPath, u"--expect"_s, u"mrope"_s});
        QVERIFY2(bare.exit == 1 && mistakesOf(bare) == QStringList {u"rope-theta"_s}, qPrintable(bare.shown));
        QVERIFY2(bare.diagnosis().contains(u"rope_theta 1000000 where the default, not declared, is 10000"_s),
                 qPrintable(bare.shown));

        // No prompt declared: theta is wrong at whatever ids the rows hold.
        const auto own = checkFile(at1e4, {u"--expect"_s, u"mrope"_s, u"--preset"_s, u"qwen2-vl-7b"_s});
        QVERIFY2(own.exit == 1 && mistakesOf(own) == QStringList {u"rope-theta"_s}, qPrintable(own.shown));

        // The correct table stays correct.
        const auto right = checkFile(
            at1e6, {u"--position-ids"_s, idsPath, u"--expect"_s, u"mrope"_s, u"--preset"_s, u"qwen2-vl-7b"_s});
        QVERIFY2(right.exit == 0, qPrintable(right.shown));
    }

    // Qwen2.5-VL's video ids, t advancing by second_per_grid * tokens_per_second (1 at second_per_grid
    // 0.5, 2 at 1): read back with that timing, correct (REPORT-r34 #2, #2b); a declared Qwen2-VL,
    // whose t is the grid index, refuses t steps of 2 in one line.
    void qwen25VideoTimingReadFromIds()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QStringList qwen25 {u"--expect"_s, u"mrope"_s, u"--preset"_s, u"qwen2-5-vl-7b"_s};
        for (const double step : {1.0, 2.0, 0.5}) {
            const std::vector<Id> ids = ropeIndex({text(5), grid(4, 4, 4, step), text(6)});
            const auto L = std::int64_t(ids.size());
            const QString name = QString::number(step);
            const QString idsPath = saved(dir, u"ids-%1.npy"_s.arg(name), {3, L}, threeAxes(ids));
            const QString cos = saved(dir, u"cos-%1.npy"_s.arg(name), {L, 128}, mropeCos(ids, 1e6, kQwen2, false));
            const auto c = checkFile(cos, QStringList {u"--position-ids"_s, idsPath} + qwen25);
            QVERIFY2(c.exit == 0 && c.verdict() == u"correct"_s, qPrintable(name + u": "_s + c.shown));
            if (step == 2.0) {
                const auto qwen2 = checkFile(
                    cos, {u"--position-ids"_s, idsPath, u"--expect"_s, u"mrope"_s, u"--preset"_s, u"qwen2-vl-7b"_s});
                QVERIFY2(qwen2.exit == 2 && qwen2.shown.contains(u"Qwen2.5-VL"_s), qPrintable(qwen2.shown));
            }
        }
    }

    // transformers' M-RoPE cos before apply_multimodal_rotary_pos_emb merges it, [3, B, L, d] (REPORT-r34
    // #5, #5b): under a declared M-RoPE each axis's slice is compared with RoPE's table at M-RoPE's
    // rope_theta, its rows at that axis's ids (the prompt's, or --position-ids [3, B, L]): correct;
    // h and w exchanged named slice-at-other-ids.
    void perAxisCacheAtItsAxesIds()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::vector<Id> ids = ropeIndex({text(20), grid(1, 14, 14), text(9)});
        const auto L = std::int64_t(ids.size());
        const QString prompt = u"text:20,image:1x28x28,text:9"_s;
        const QStringList qwen2 {u"--expect"_s, u"mrope"_s, u"--preset"_s, u"qwen2-vl-7b"_s};
        const QString one = saved(dir, u"pre1.npy"_s, {3, 1, L, 128}, perAxisCos(ids, 1e6, 64, 1));
        const QString two = saved(dir, u"pre2.npy"_s, {3, 2, L, 128}, perAxisCos(ids, 1e6, 64, 2));
        const QString swapped = saved(dir, u"sw.npy"_s, {3, 1, L, 128}, perAxisCos(ids, 1e6, 64, 1, {0, 2, 1}));
        const QString idsPath = saved(dir, u"ids.npy"_s, {3, 1, L}, threeAxes(ids));
        QVERIFY(!one.isEmpty() && !two.isEmpty() && !swapped.isEmpty() && !idsPath.isEmpty());

        for (const QString &file : {one, two}) {
            const auto c = checkFile(file, QStringList {u"--prompt"_s, prompt} + qwen2);
            QVERIFY2(c.exit == 0 && c.verdict() == u"correct"_s, qPrintable(c.shown));
        }
        // Three batch rows of the merged table, [3, L, d]: the slices are one table, no axes of a
        // prompt with an image, and each is the merged table.
        std::vector<double> three;
        for (int b = 0; b < 3; ++b)
            for (const double v : mropeCos(ids, 1e6, kQwen2, false))
                three.push_back(v);
        const QString batch = saved(dir, u"batch3.npy"_s, {3, L, 128}, three);
        const auto rows = checkFile(batch, QStringList {u"--prompt"_s, prompt} + qwen2);
        QVERIFY2(rows.exit == 0 && rows.verdict() == u"correct"_s, qPrintable(rows.shown));
        const auto atIds = checkFile(one, QStringList {u"--position-ids"_s, idsPath} + qwen2);
        QVERIFY2(atIds.exit == 0 && atIds.verdict() == u"correct"_s, qPrintable(atIds.shown));
        const auto wrong = checkFile(swapped, QStringList {u"--position-ids"_s, idsPath} + qwen2);
        QVERIFY2(wrong.exit == 1 && mistakesOf(wrong) == QStringList {u"slice-at-other-ids"_s},
                 qPrintable(wrong.shown));
        // rope_theta 10000 where 1e6 is declared: rope-theta, both values said.
        const QString theta = saved(dir, u"theta.npy"_s, {3, 1, L, 128}, perAxisCos(ids, 1e4, 64, 1));
        const auto t = checkFile(theta, QStringList {u"--prompt"_s, prompt} + qwen2);
        QVERIFY2(t.exit == 1 && mistakesOf(t) == QStringList {u"rope-theta"_s}
                     && t.diagnosis().contains(u"rope_theta 10000 where the declaration gives 1000000"_s),
                 qPrintable(t.shown));
    }

    // mrope-ids-differ lists the rows that differ, never a row whose ids the table's precision cannot
    // tell apart from the prompt's (REPORT-r34 #13: w's slowest pairs cannot resolve an id one off in
    // float32, so a text row 2 read back as (2, 2, 1) is no evidence); nor does the undeclared note
    // call such a row a change between text and vision.
    void idsDifferListsRowsThatDiffer()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::vector<Id> ids = ropeIndex({text(20), grid(1, 14, 14), text(9)});
        const std::vector<Id> other = ropeIndex({text(20), grid(1, 7, 28), text(9)});
        const auto L = std::int64_t(ids.size());
        const QString table = saved(dir, u"cos.npy"_s, {L, 128}, mropeCos(ids, 1e6, kQwen2, false));
        const QString otherIds = saved(dir, u"other.npy"_s, {3, L}, threeAxes(other));
        QVERIFY(!table.isEmpty() && !otherIds.isEmpty());
        const auto c = checkFile(
            table, {u"--position-ids"_s, otherIds, u"--expect"_s, u"mrope"_s, u"--preset"_s, u"qwen2-vl-7b"_s});
        QVERIFY2(c.exit == 1 && mistakesOf(c) == QStringList {u"mrope-ids-differ"_s}, qPrintable(c.shown));
        // The first image row whose ids differ: token 14 of the image, (20, 21, 20) in the table where
        // the 7 x 28 grid gives (20, 20, 34).
        QVERIFY2(c.diagnosis().contains(u"from row 34 "_s) && !c.diagnosis().contains(u"row 2 ("_s),
                 qPrintable(c.shown));
        const CliRun::Run undeclared = CliRun::posenc({u"check"_s, table});
        QVERIFY2(undeclared.exitCode == 7 && undeclared.out.contains(u"row 0 (0, 0, 0), row 21 (20, 20, 21)"_s),
                 qPrintable(undeclared.out));
    }

    // A left-padded row (REPORT-r34 #8): get_rope_index gives its padding ids 1 and the rotary
    // embedding computes their rows as any; the [3, L] ids declare the prompt after the padding
    // and the table is correct, as with --prompt and --batch left:N; the table of 1-D positions at
    // the same ids is a mistake.
    void leftPaddedRowsAtIdsOne()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        std::vector<Id> ids(4, Id {1, 1, 1});
        for (const Id &id : ropeIndex({text(6), grid(1, 4, 6), text(5)}))
            ids.push_back(id);
        const auto L = std::int64_t(ids.size());
        const QString idsPath = saved(dir, u"ids.npy"_s, {3, L}, threeAxes(ids));
        const QString cos = saved(dir, u"cos.npy"_s, {L, 128}, mropeCos(ids, 1e6, kQwen2, false));
        std::vector<Id> positions;
        for (std::int64_t k = 0; k < L; ++k)
            positions.push_back({k, k, k});
        const QString oneD = saved(dir, u"oned.npy"_s, {L, 128}, mropeCos(positions, 1e6, kQwen2, false));
        QVERIFY(!idsPath.isEmpty() && !cos.isEmpty() && !oneD.isEmpty());
        const QStringList qwen2 {u"--expect"_s, u"mrope"_s, u"--preset"_s, u"qwen2-vl-7b"_s};
        const auto atIds = checkFile(cos, QStringList {u"--position-ids"_s, idsPath} + qwen2);
        QVERIFY2(atIds.exit == 0 && atIds.diagnosis().contains(u"4 rows of left padding"_s), qPrintable(atIds.shown));
        const auto declared = checkFile(
            cos,
            QStringList {u"--prompt"_s, u"text:6,image:1x8x12,text:5"_s, u"--batch"_s, u"left:%1"_s.arg(L - 4)}
                + qwen2);
        QVERIFY2(declared.exit == 0, qPrintable(declared.shown));
        const auto wrong = checkFile(oneD, QStringList {u"--position-ids"_s, idsPath} + qwen2);
        QVERIFY2(wrong.exit == 1, qPrintable(wrong.shown));
        // A Qwen-VL config declares the model; the padding is the batch's input, as the prompt is.
        const auto config = checkFile(cos,
                                      {u"--position-ids"_s, idsPath, u"--expect-config"_s,
                                       QStringLiteral(POSENC_CONFIGS "/Qwen2-VL-7B-Instruct.json")});
        QVERIFY2(config.exit == 0, qPrintable(config.shown));
    }

    // --expect-table with an M-RoPE reference (REPORT-r34 #10, #10b): the prompt read from the
    // reference's every row, a float64 port of a float32 dump correct, and the ports that split the
    // pairs interleaved, exchange h and w, take rope_theta 10000 or leave the second half at t named
    // as --expect mrope names them.
    void referenceTableNamesThePort()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::vector<Id> ids = ropeIndex({text(20), grid(1, 14, 14), text(9)});
        const auto L = std::int64_t(ids.size());
        std::vector<Id> swapped = ids;
        for (std::size_t k = 20; k < 20 + 196; ++k)
            std::swap(swapped[k][1], swapped[k][2]);
        const QString reference = saved(dir, u"ref.npy"_s, {L, 128}, mropeCos(ids, 1e6, kQwen2, false));
        const QList<std::pair<QString, std::vector<double>>> ports {
            {u"correct"_s, portCos(ids, 1e6, kQwen2)},
            {u"mrope-interleave-swapped"_s, mropeCos(ids, 1e6, kQwen2, true)},
            {u"mrope-axes-swapped"_s, portCos(swapped, 1e6, kQwen2)},
            {u"rope-theta"_s, portCos(ids, 1e4, kQwen2)},
            {u"mrope-columns-axis"_s, portCos(ids, 1e6, kQwen2, true)}};
        for (const auto &[expected, values] : ports) {
            const QString port = saved(dir, expected + u".npy"_s, {L, 128}, values);
            const auto c = checkFile(port, {u"--expect-table"_s, reference});
            if (expected == u"correct"_s)
                QVERIFY2(c.exit == 0 && c.verdict() == u"correct"_s, qPrintable(c.shown));
            else
                QVERIFY2(c.exit == 1 && mistakesOf(c) == QStringList {expected},
                         qPrintable(expected + u": "_s + c.shown));
        }
    }

    // Ids a slip made no prompt's are refused naming the slip (REPORT-r34 #14): the h and w rows
    // exchanged, left padding filled with 0 (get_rope_index fills 1); and a sin table declared as
    // M-RoPE's cos is sin-cos-swapped (#17), as is the cos declared as its sin.
    void slipsNamed()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::vector<Id> ids = ropeIndex({text(20), grid(1, 14, 14), text(9)});
        const auto L = std::int64_t(ids.size());
        std::vector<Id> exchanged = ids;
        for (Id &id : exchanged)
            std::swap(id[1], id[2]);
        std::vector<Id> zeros(4, Id {0, 0, 0});
        for (const Id &id : ids)
            zeros.push_back(id);
        const QString cos = saved(dir, u"cos.npy"_s, {L, 128}, mropeCos(ids, 1e6, kQwen2, false));
        const QString sin = saved(dir, u"sin.npy"_s, {L, 128}, mropeSin(ids, 1e6, kQwen2));
        const QString padded = saved(dir, u"padded.npy"_s, {L + 4, 128}, mropeCos(zeros, 1e6, kQwen2, false));
        const QString idsPath = saved(dir, u"ids.npy"_s, {3, L}, threeAxes(ids));
        const QString swappedIds = saved(dir, u"sw.npy"_s, {3, L}, threeAxes(exchanged));
        const QString zeroIds = saved(dir, u"zeros.npy"_s, {3, L + 4}, threeAxes(zeros));
        const QStringList qwen2 {u"--preset"_s, u"qwen2-vl-7b"_s};
        const auto axes
            = checkFile(cos, QStringList {u"--position-ids"_s, swappedIds, u"--expect"_s, u"mrope"_s} + qwen2);
        QVERIFY2(axes.exit == 2 && axes.shown.contains(u"row 2 holds h's ids, row 1 holds w's ids"_s),
                 qPrintable(axes.shown));
        const auto pad
            = checkFile(padded, QStringList {u"--position-ids"_s, zeroIds, u"--expect"_s, u"mrope"_s} + qwen2);
        QVERIFY2(pad.exit == 2 && pad.shown.contains(u"first 4 columns hold ids 0"_s)
                     && pad.shown.contains(u"text:20,image:1x28x28,text:9"_s) && !pad.shown.contains(u"--prompt"_s),
                 qPrintable(pad.shown));
        const auto sinAsCos
            = checkFile(sin, QStringList {u"--position-ids"_s, idsPath, u"--expect"_s, u"mrope-cos"_s} + qwen2);
        QVERIFY2(sinAsCos.exit == 1 && mistakesOf(sinAsCos) == QStringList {u"sin-cos-swapped"_s},
                 qPrintable(sinAsCos.shown));
        const auto cosAsSin
            = checkFile(cos, QStringList {u"--position-ids"_s, idsPath, u"--expect"_s, u"mrope-sin"_s} + qwen2);
        QVERIFY2(cosAsSin.exit == 1 && mistakesOf(cosAsSin) == QStringList {u"sin-cos-swapped"_s},
                 qPrintable(cosAsSin.shown));
        const auto either
            = checkFile(sin, QStringList {u"--position-ids"_s, idsPath, u"--expect"_s, u"mrope"_s} + qwen2);
        QVERIFY2(either.exit == 0, qPrintable(either.shown));
    }

    // A batch of merged tables, [B, L, d] (Qwen3-VL's rotary output, one table per batch row), with
    // get_rope_index's [3, B, L]: each row checked at the prompt its ids lay out, a left-padded row
    // too; a row whose image has h and w exchanged is named with its slice.
    void batchOfMergedTablesAtTheirIds()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::vector<Id> first = ropeIndex({text(12), grid(1, 8, 10), text(7)});
        std::vector<Id> second(19, Id {1, 1, 1});
        for (const Id &id : ropeIndex({text(5), grid(1, 6, 6), text(39)}))
            second.push_back(id);
        QCOMPARE(first.size(), second.size());
        const auto L = std::int64_t(first.size());
        std::vector<Id> swapped = second;
        for (std::size_t k = 19 + 5; k < 19 + 5 + 36; ++k)
            std::swap(swapped[k][1], swapped[k][2]);
        std::vector<double> ids;
        for (int a = 0; a < 3; ++a)
            for (const std::vector<Id> *row : std::array<const std::vector<Id> *, 2> {&first, &second})
                for (const Id &id : *row)
                    ids.push_back(double(id[std::size_t(a)]));
        std::vector<double> right = mropeCos(first, 5e6, kQwen3, true), wrong = right;
        for (const double v : mropeCos(second, 5e6, kQwen3, true))
            right.push_back(v);
        for (const double v : mropeCos(swapped, 5e6, kQwen3, true))
            wrong.push_back(v);
        const QString idsPath = saved(dir, u"ids.npy"_s, {3, 2, L}, ids);
        const QString good = saved(dir, u"good.npy"_s, {2, L, 128}, right);
        const QString bad = saved(dir, u"bad.npy"_s, {2, L, 128}, wrong);
        const QStringList qwen3 {u"--expect"_s, u"mrope"_s, u"--preset"_s, u"qwen3-vl-8b"_s};
        const auto c = checkFile(good, QStringList {u"--position-ids"_s, idsPath} + qwen3);
        QVERIFY2(c.exit == 0 && c.verdict() == u"correct"_s, qPrintable(c.shown));
        const auto w = checkFile(bad, QStringList {u"--position-ids"_s, idsPath} + qwen3);
        QVERIFY2(w.exit == 1 && mistakesOf(w) == QStringList {u"mrope-axes-swapped"_s}
                     && w.diagnosis().startsWith(u"slice [1]"_s),
                 qPrintable(w.shown));
    }

    // Whether a prompt was declared is said by the flags, not by the prompt's value: the presets'
    // example prompt given with --prompt declares it, so a table of another prompt is compared with
    // it (a mistake, the ids said); a preset or a config with no --prompt declares none (unknown at
    // the table's own ids, never a mistake against the example).
    void promptDeclaredByTheFlag()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::vector<Id> ids = ropeIndex({text(20), grid(1, 14, 14), text(9)});
        const auto L = std::int64_t(ids.size());
        const QString cos = saved(dir, u"cos.npy"_s, {L, 128}, mropeCos(ids, 1e6, kQwen2, false));
        QVERIFY(!cos.isEmpty());
        const QStringList preset {u"--expect"_s, u"mrope"_s, u"--preset"_s, u"qwen2-vl-7b"_s};
        const auto given
            = checkFile(cos, preset + QStringList {u"--prompt"_s, u"text:5,image:1x4x6,text:3,video:2x4x4,text:2"_s});
        QVERIFY2(given.exit == 1 && given.verdict() == u"mistake"_s, qPrintable(given.shown));
        const auto none = checkFile(cos, preset);
        QVERIFY2(none.exit == 7 && none.diagnosis().contains(u"no prompt is declared"_s), qPrintable(none.shown));
        const auto config
            = checkFile(cos, {u"--expect-config"_s, QStringLiteral(POSENC_CONFIGS "/Qwen2-VL-7B-Instruct.json")});
        QVERIFY2(config.exit == 7 && config.diagnosis().contains(u"no prompt is declared"_s), qPrintable(config.shown));
    }

    // A decode window of text tokens, transformers' cos before the merge [3, 1, 5, 128] at ids 130..134
    // (get_rope_index's text: t = h = w), declared by --positions with no prompt: correct at its
    // window; a port whose ids did not advance (every row at 130, jundot/omlx PR#2363) same-row with
    // position 130 said, under the config and against the correct window's table; without --positions
    // the refusal says that --prompt or --positions declares the rows.
    void decodeWindowDeclaredByPositions()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        std::vector<Id> window, stuck;
        for (std::int64_t p = 130; p < 135; ++p) {
            window.push_back({p, p, p});
            stuck.push_back({130, 130, 130});
        }
        const QString fixed = saved(dir, u"fixed.npy"_s, {3, 1, 5, 128}, perAxisCos(window, 1e6, 64, 1));
        const QString buggy = saved(dir, u"buggy.npy"_s, {3, 1, 5, 128}, perAxisCos(stuck, 1e6, 64, 1));
        const QStringList config {u"--expect-config"_s, QStringLiteral(POSENC_CONFIGS "/Qwen2.5-VL-7B-Instruct.json")};
        const QStringList positions {u"--positions"_s, u"130:135"_s};
        const auto right = checkFile(fixed, config + positions);
        QVERIFY2(right.exit == 0 && right.verdict() == u"correct"_s, qPrintable(right.shown));
        QCOMPARE(right.json[u"positions"_s].toObject()[u"first"_s].toInt(), 130);
        const auto wrong = checkFile(buggy, config + positions);
        QVERIFY2(wrong.exit == 1 && mistakesOf(wrong) == QStringList {u"same-row"_s}
                     && wrong.diagnosis().contains(u"(position 130)"_s),
                 qPrintable(wrong.shown));
        const auto undeclared = checkFile(fixed, config);
        QVERIFY2(undeclared.exit == 2 && undeclared.shown.contains(u"--prompt declares the prompt"_s)
                     && undeclared.shown.contains(u"--positions A:B alone a text-only window"_s),
                 qPrintable(undeclared.shown));
        // One slice, 64 columns (a text window's every split alike): against the correct window's table.
        const std::array<std::int64_t, 3> split {8, 12, 12};
        const QString reference = saved(dir, u"ref.npy"_s, {5, 64}, mropeCos(window, 1e6, split, false));
        const QString port = saved(dir, u"port.npy"_s, {5, 64}, mropeCos(stuck, 1e6, split, false));
        const auto table = checkFile(port, {u"--expect-table"_s, reference});
        QVERIFY2(table.exit == 1 && mistakesOf(table) == QStringList {u"same-row"_s}
                     && table.diagnosis().contains(u"every row holds position 130 (row 0's own)"_s),
                 qPrintable(table.shown));
    }

    // --positions A:B with a prompt declared names which of the sequence's tokens the rows are, their
    // cache positions (REPORT-r51 #4): five decode steps after a text prompt of 5 or 130 tokens are at
    // ids 130..134 (cache_position + rope_deltas 0); rows at ids 0..4 declared there are
    // position-offset, never correct, as a window declared one early without a prompt is (#13).
    // --batch beside a window is refused in one line.
    void positionsWithAPromptAreItsTokens()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        std::vector<Id> window, early;
        for (std::int64_t p = 0; p < 5; ++p) {
            window.push_back({130 + p, 130 + p, 130 + p});
            early.push_back({p, p, p});
        }
        const QString win = saved(dir, u"win.npy"_s, {3, 1, 5, 128}, perAxisCos(window, 1e6, 64, 1));
        const QString zero = saved(dir, u"zero.npy"_s, {3, 1, 5, 128}, perAxisCos(early, 1e6, 64, 1));
        const QStringList config {u"--expect-config"_s, QStringLiteral(POSENC_CONFIGS "/Qwen2.5-VL-7B-Instruct.json"),
                                  u"--positions"_s, u"130:135"_s};
        const auto text5 = config + QStringList {u"--prompt"_s, u"text:5"_s};
        const auto atZero = checkFile(zero, text5);
        QVERIFY2(atZero.exit == 1 && mistakesOf(atZero) == QStringList {u"position-offset"_s},
                 qPrintable(atZero.shown));
        const auto after5 = checkFile(win, text5);
        QVERIFY2(after5.exit == 0 && after5.verdict() == u"correct"_s, qPrintable(after5.shown));
        const auto after130 = checkFile(win, config + QStringList {u"--prompt"_s, u"text:130"_s});
        QVERIFY2(after130.exit == 0 && after130.verdict() == u"correct"_s, qPrintable(after130.shown));
        const auto oneEarly
            = checkFile(win,
                        {u"--expect-config"_s, QStringLiteral(POSENC_CONFIGS "/Qwen2.5-VL-7B-Instruct.json"),
                         u"--positions"_s, u"129:134"_s});
        QVERIFY2(oneEarly.exit == 1 && mistakesOf(oneEarly) == QStringList {u"position-offset"_s}
                     && oneEarly.diagnosis().contains(u"+ 1"_s),
                 qPrintable(oneEarly.shown));
        const auto padded = checkFile(win, text5 + QStringList {u"--batch"_s, u"left:3"_s});
        QVERIFY2(padded.exit == 2 && padded.shown.contains(u"--positions: a window of the sequence's tokens"_s),
                 qPrintable(padded.shown));
    }

    // A decode window after an image prompt: each step at cache_position + rope_deltas (Qwen2VLModel.forward's
    // decode branch; get_rope_index's rope_deltas = 13 + 1 - 32 = -18 for text:5, a 4 x 6 merged image, text:3),
    // the merged table in float64 and the cos before the merge: correct; the same steps at their bare cache
    // position mrope-rope-deltas-lost. A window that spans the image (a chunk of the prefill) is at the
    // image's own ids.
    void decodeWindowAfterAnImage()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::vector<Id> prompt = ropeIndex({text(5), grid(1, 4, 6), text(3)});
        QCOMPARE(prompt.size(), std::size_t(32));
        std::vector<Id> steps, bare;
        for (std::int64_t k = 0; k < 4; ++k) {
            steps.push_back({14 + k, 14 + k, 14 + k});
            bare.push_back({32 + k, 32 + k, 32 + k});
        }
        const QStringList flags {u"--expect-config"_s, QStringLiteral(POSENC_CONFIGS "/Qwen2.5-VL-7B-Instruct.json"),
                                 u"--prompt"_s, u"text:5,image:1x8x12,text:3"_s};
        const QStringList decode = flags + QStringList {u"--positions"_s, u"32:36"_s};
        for (const bool merged : {true, false}) {
            const auto table = [&](const QString &name, const std::vector<Id> &ids) {
                return merged ? saved(dir, name, {std::int64_t(ids.size()), 128}, portCos(ids, 1e6, kQwen2))
                              : saved(dir, name, {3, 1, std::int64_t(ids.size()), 128}, perAxisCos(ids, 1e6, 64, 1));
            };
            const auto right = checkFile(table(u"right.npy"_s, steps), decode);
            QVERIFY2(right.exit == 0 && right.verdict() == u"correct"_s, qPrintable(right.shown));
            const auto lost = checkFile(table(u"lost.npy"_s, bare), decode);
            QVERIFY2(lost.exit == 1 && mistakesOf(lost) == QStringList {u"mrope-rope-deltas-lost"_s},
                     qPrintable(lost.shown));
            if (!merged)
                continue;
            const std::vector<Id> chunk(prompt.begin() + 3, prompt.begin() + 13);
            const auto spans
                = checkFile(table(u"chunk.npy"_s, chunk), flags + QStringList {u"--positions"_s, u"3:13"_s});
            QVERIFY2(spans.exit == 0 && spans.verdict() == u"correct"_s, qPrintable(spans.shown));
        }
    }

    // A decode step's cos before the merge, [3, B, 1, 128]: the axis of 3 and the B sequences are no rows
    // (REPORT-r51 #5), 3·B one-row slices, each at the step's ids: --positions A:A+1 correct at its own
    // step, position-offset at the next, after an image prompt at cache_position + rope_deltas (B 1 and
    // 2); with nothing declared the refusal suggests only what the check then accepts.
    void decodeStepOfOneRow()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QStringList config {u"--expect-config"_s, QStringLiteral(POSENC_CONFIGS "/Qwen2.5-VL-7B-Instruct.json")};
        const QString one = saved(dir, u"one.npy"_s, {3, 1, 1, 128}, perAxisCos({{130, 130, 130}}, 1e6, 64, 1));
        const auto own = checkFile(one, config + QStringList {u"--positions"_s, u"130:131"_s});
        QVERIFY2(own.exit == 0 && own.verdict() == u"correct"_s, qPrintable(own.shown));
        const auto undeclared = checkFile(one, config);
        QVERIFY2(undeclared.exit == 2 && undeclared.shown.contains(u"this table has 1 row "_s)
                     && undeclared.shown.contains(u"--positions A:B"_s),
                 qPrintable(undeclared.shown));
        const QString two = saved(dir, u"two.npy"_s, {3, 2, 1, 128}, perAxisCos({{130, 130, 130}}, 1e6, 64, 2));
        const auto next = checkFile(two, config + QStringList {u"--positions"_s, u"131:132"_s});
        QVERIFY2(next.exit == 1 && mistakesOf(next) == QStringList {u"position-offset"_s}, qPrintable(next.shown));
        const QString afterImage = saved(dir, u"image.npy"_s, {3, 2, 1, 128}, perAxisCos({{15, 15, 15}}, 1e6, 64, 2));
        const auto image = checkFile(
            afterImage,
            config + QStringList {u"--prompt"_s, u"text:5,image:1x8x12,text:3"_s, u"--positions"_s, u"33:34"_s});
        QVERIFY2(image.exit == 0 && image.verdict() == u"correct"_s, qPrintable(image.shown));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliMropeDumps)
} // namespace tst_climropedumps
#include "tst_climropedumps.moc"
