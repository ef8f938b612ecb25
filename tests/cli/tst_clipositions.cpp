// The batch on the command line and posenc check --position-ids, as users and scripts meet them:
// a bad batch is one line naming its flag and range, exit 2; the reference's own ids (recorded with
// torch, tests/data/make_position_ids_fixture.py) are correct, and each mistake is named on ids
// written from its definition here.
#include "PositionIdsRun.h"
#include "support/TestMain.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

namespace tst_clipositions {
using namespace Qt::StringLiterals;

using namespace PositionIdsRun;

class TestCliPositions : public QObject
{
    Q_OBJECT

private slots:
    void badBatchIsOneLineNamingItsFlag_data()
    {
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QString>("flag");
        QTest::newRow("lengths past L") << QStringList {u"--batch"_s, u"left:5,9"_s, u"--max-len"_s, u"8"_s}
                                        << u"--batch"_s;
        QTest::newRow("no side") << QStringList {u"--batch"_s, u"5,8"_s} << u"--batch"_s;
        QTest::newRow("documents overflow a row")
            << QStringList {u"--packed"_s, u"3,4,2/5,5"_s, u"--max-len"_s, u"9"_s} << u"--packed"_s;
        QTest::newRow("a document of 0") << QStringList {u"--packed"_s, u"3,0"_s} << u"--packed"_s;
        QTest::newRow("cache beyond max_len")
            << QStringList {u"--cache"_s, u"20"_s, u"--max-len"_s, u"8"_s} << u"--cache"_s;
        QTest::newRow("cache beside documents")
            << QStringList {u"--packed"_s, u"3,4"_s, u"--cache"_s, u"3"_s} << u"--cache"_s;
        QTest::newRow("two batches") << QStringList {u"--batch"_s, u"left:3"_s, u"--packed"_s, u"3"_s} << u"--batch"_s;
        QTest::newRow("ids choice") << QStringList {u"--ids-choice"_s, u"arange"_s} << u"--ids-choice"_s;
    }
    void badBatchIsOneLineNamingItsFlag()
    {
        QFETCH(QStringList, flags);
        QFETCH(QString, flag);
        QTemporaryDir dir;
        const auto run
            = CliRun::posenc(QStringList {u"table"_s, u"position-ids"_s, u"-o"_s, dir.filePath(u"t.npy"_s)} + flags);
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(run.err.count(u'\n'), 1);
        QVERIFY2(run.err.contains(flag + u":"_s), qPrintable(run.err));
        QVERIFY2(run.err.contains(u"must be"_s), qPrintable(run.err));
        QVERIFY(!QFile::exists(dir.filePath(u"t.npy"_s)));
    }

    void maskThatIsNotZeroOrOne()
    {
        QTemporaryDir dir;
        const QString mask = write(dir, u"mask.npy"_s, {{0, 0.5f, 1, 1}});
        const auto run = CliRun::posenc(
            {u"table"_s, u"position-ids"_s, u"--attention-mask"_s, mask, u"-o"_s, dir.filePath(u"t.npy"_s)});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.startsWith(u"posenc table: --attention-mask: a value other than 0 and 1: 0.5 at row 0, "
                                    "column 1; it must be a [B, L] matrix of 0 and 1"_s),
                 qPrintable(run.err));
    }

    // The reference's own ids, for each of its batches, are correct.
    void referenceIdsAreCorrect_data()
    {
        QTest::addColumn<QString>("name");
        for (const char *name : {"left padding", "right padding", "decode after a prefill, left padding",
                                 "decode after a prefill, right padding", "packed 3,4,2", "packed 5,1,6,2",
                                 "qwen2-vl left padding", "qwen2-vl decode after a prefill"})
            QTest::newRow(name) << QString::fromLatin1(name);
    }
    void referenceIdsAreCorrect()
    {
        QFETCH(QString, name);
        QTemporaryDir dir;
        const QJsonObject c = fixtureCase(name);
        const auto run = check(write(dir, u"ids.npy"_s, idsOf(c)), flagsOf(c), true);
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(verdictOf(run), std::pair(u"correct"_s, QStringList {}));
    }

    void arangeWithPadding()
    {
        QTemporaryDir dir;
        std::vector<std::vector<float>> ids(3);
        for (auto &row : ids)
            for (int c = 0; c < 8; ++c)
                row.push_back(float(c)); // torch.arange(L) for every row
        const auto run
            = check(write(dir, u"ids.npy"_s, ids), {u"--batch"_s, u"left:5,8,3"_s, u"--max-len"_s, u"8"_s}, true);
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(verdictOf(run), std::pair(u"mistake"_s, QStringList {u"arange-with-padding"_s}));
    }

    void positionsNotRestarted()
    {
        QTemporaryDir dir;
        std::vector<std::vector<float>> ids(1);
        for (int c = 0; c < 9; ++c)
            ids[0].push_back(float(c)); // one running count over the three documents
        const auto run
            = check(write(dir, u"ids.npy"_s, ids), {u"--packed"_s, u"3,4,2"_s, u"--max-len"_s, u"9"_s}, true);
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(verdictOf(run), std::pair(u"mistake"_s, QStringList {u"positions-not-restarted"_s}));
    }

    void restartedWithoutBlockMask()
    {
        QTemporaryDir dir;
        const QJsonObject c = fixtureCase(u"packed 3,4,2"_s);
        const QString mask = write(dir, u"mask.npy"_s, {std::vector<float>(9, 1.0f)});
        const auto run
            = check(write(dir, u"ids.npy"_s, idsOf(c)), flagsOf(c) + QStringList {u"--attention-mask"_s, mask}, true);
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(verdictOf(run), std::pair(u"mistake"_s, QStringList {u"restarted-without-block-mask"_s}));
    }

    // The decode steps' ids counted from 0 again: the cache's length not added.
    void cacheOffset()
    {
        QTemporaryDir dir;
        const QJsonObject c = fixtureCase(u"decode after a prefill, left padding"_s);
        auto ids = idsOf(c);
        for (auto &row : ids)
            for (int col = 8; col < 11; ++col)
                row[std::size_t(col)] = float(col - 8);
        const auto run = check(write(dir, u"ids.npy"_s, ids), flagsOf(c), true);
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(verdictOf(run), std::pair(u"mistake"_s, QStringList {u"cache-offset"_s}));
    }

    // With the batch declared the reference's ids are exact integers, so any other id is a mistake
    // (exit 1), named where the difference has a shape: decode steps a fixed amount off (a prompt's
    // length added twice), decode steps that never advance (RoFormer's generation at position 0), a
    // prefill chunk that starts again from 0 (a chunked prefill's second chunk, no cache declared):
    // cache-offset; every id shifted alike: position-offset; else unnamed, the differences said.
    void otherIdsAreAMistake_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QString>("change");
        QTest::addColumn<QStringList>("named");
        QTest::newRow("decode steps +6") << u"decode after a prefill, right padding"_s << u"decode+6"_s
                                         << QStringList {u"cache-offset"_s};
        QTest::newRow("decode steps stuck at 0")
            << u"decode after a prefill, right padding"_s << u"decode=0"_s << QStringList {u"cache-offset"_s};
        QTest::newRow("a chunk from 0 at column 4") << u"packed 5,1,6,2"_s << u"chunk@4"_s << QStringList {};
        QTest::newRow("every id +3") << u"left padding"_s << u"all+3"_s << QStringList {u"position-offset"_s};
        QTest::newRow("one id off") << u"left padding"_s << u"one"_s << QStringList {};
        QTest::newRow("every id +2, RoBERTa's") << u"left padding"_s << u"all+2"_s << QStringList {};
    }
    void otherIdsAreAMistake()
    {
        QFETCH(QString, fixture);
        QFETCH(QString, change);
        QFETCH(QStringList, named);
        QTemporaryDir dir;
        const QJsonObject c = fixtureCase(fixture);
        auto ids = idsOf(c);
        const auto mask = c.value(u"mask"_s).toArray();
        for (std::size_t b = 0; b < ids.size(); ++b) {
            auto &row = ids[b];
            for (std::size_t col = 0; col < row.size(); ++col) {
                // Padding (1) stays: the check does not read it.
                const bool real = mask.isEmpty() || mask[qsizetype(b)].toArray()[qsizetype(col)].toInt() == 1;
                if (change == u"decode+6"_s && col >= 8)
                    row[col] += 6.0f;
                else if (change == u"decode=0"_s && col >= 8)
                    row[col] = 0.0f;
                else if ((change == u"all+3"_s || change == u"all+2"_s) && real)
                    row[col] += change == u"all+3"_s ? 3.0f : 2.0f;
                else if (change == u"one"_s && b == 1 && col == 3)
                    row[col] += 5.0f;
            }
        }
        QStringList flags = flagsOf(c);
        if (change == u"chunk@4"_s) {
            // One document of 14 tokens (the collator's 0..13), its second chunk from column 4 at 0.
            ids = {std::vector<float>(14)};
            for (int col = 0; col < 14; ++col)
                ids[0][std::size_t(col)] = float(col < 4 ? col : col - 4);
            flags = {u"--packed"_s, u"14"_s, u"--max-len"_s, u"14"_s};
            named = {u"cache-offset"_s};
        }
        const auto run = check(write(dir, u"ids.npy"_s, ids), flags, true);
        if (change == u"all+2"_s) { // RoBERTa's published rule (padding_idx + 1): unknown, not a mistake
            QCOMPARE(run.exitCode, 7);
            QCOMPARE(verdictOf(run), std::pair(u"unknown"_s, QStringList {}));
            return;
        }
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(verdictOf(run), std::pair(u"mistake"_s, named));
        if (named.isEmpty())
            QVERIFY2(run.out.contains(u"no mistake the check knows explains the ids"_s), qPrintable(run.out));
    }

    // MPT's decode steps (mosaicml/examples#257, MosaicGPT.forward: the padding's cumsum taken over
    // the sliced mask): the cache's offset there, the row's padding not subtracted, each decode
    // step's id its column. cache-offset's ids regenerated for the batch (the decode steps from 0)
    // are not these, so it is not named: arange-with-padding in the decode steps, the padding said.
    void decodeStepsWithoutThePadding()
    {
        QTemporaryDir dir;
        const QJsonObject c = fixtureCase(u"decode after a prefill, left padding"_s);
        auto ids = idsOf(c);
        for (auto &row : ids)
            for (int col = 8; col < 11; ++col)
                row[std::size_t(col)] = float(col);
        const auto run = check(write(dir, u"ids.npy"_s, ids), flagsOf(c), true);
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(verdictOf(run), std::pair(u"mistake"_s, QStringList {u"arange-with-padding"_s}));
        QVERIFY2(
            run.out.contains(u"row 0's decode steps: their columns, the row's padding (3 tokens) not subtracted"_s),
            qPrintable(run.out));
        QVERIFY2(run.out.contains(u"row 2's decode steps: their columns, the row's padding (5 tokens)"_s),
                 qPrintable(run.out));
    }

    // M-RoPE's decode steps at cache_position alone: rope_deltas lost.
    void mropeDeltasLost()
    {
        QTemporaryDir dir;
        const QJsonObject c = fixtureCase(u"qwen2-vl decode after a prefill"_s);
        auto ids = idsOf(c);
        for (auto &row : ids)
            for (int col = 12; col < 15; ++col)
                row[std::size_t(col)] = float(col);
        const auto run = check(write(dir, u"ids.npy"_s, ids), flagsOf(c), true);
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(verdictOf(run), std::pair(u"mistake"_s, QStringList {u"cache-offset"_s}));
    }

    void offByOne()
    {
        QTemporaryDir dir;
        auto ids = idsOf(fixtureCase(u"left padding"_s));
        for (std::size_t b = 0; b < ids.size(); ++b)
            for (std::size_t col = 0; col < 8; ++col)
                if (kLeftMask[b][col] == 1)
                    ids[b][col] += 1.0f; // attention_mask.cumsum(-1) without the - 1
        const auto run
            = check(write(dir, u"ids.npy"_s, ids), {u"--batch"_s, u"left:5,8,3"_s, u"--max-len"_s, u"8"_s}, true);
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(verdictOf(run), std::pair(u"mistake"_s, QStringList {u"off-by-one"_s}));
    }

    // --position-ids takes the check's common options, as every mode of posenc check does (a
    // script's `posenc check --json --quiet ...`), and --config too.
    void commonOptionsOfTheCheck()
    {
        QTemporaryDir dir;
        const QString ids = write(dir, u"ids.npy"_s, idsOf(fixtureCase(u"left padding"_s)));
        const QStringList batch {u"--batch"_s, u"left:5,8,3"_s, u"--max-len"_s, u"8"_s};
        const auto run = check(ids, batch + QStringList {u"--quiet"_s, u"--threads"_s, u"2"_s}, true);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QCOMPARE(verdictOf(run), std::pair(u"correct"_s, QStringList()));
        const auto refused = check(ids, batch + QStringList {u"--threads"_s, u"0"_s});
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.contains(u"--threads: must be an integer in [1, 1024]; got '0'"_s),
                 qPrintable(refused.err));
        const QString config = dir.filePath(u"config.json"_s);
        QFile file(config);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"model_type": "llama", "hidden_size": 256, "num_attention_heads": 4, "rope_theta": 10000.0,
                       "max_position_embeddings": 2048})");
        file.close();
        const auto configRun
            = CliRun::posenc({u"check"_s, u"--config"_s, config, u"--quiet"_s, u"--threads"_s, u"2"_s});
        QVERIFY2(configRun.exitCode == 0, qPrintable(configRun.err));
    }

    // Held-out set 4's F3 (transformers#41152): Qwen2.5-VL's M-RoPE ids of text:6, a video of grid
    // 4x8x8 at 2 s a grid, text:5, built as get_rope_index builds them (modeling_qwen2_5_vl.py,
    // Qwen2_5_VLModel.get_rope_index: text t = h = w = st + arange(n); the video's t_index =
    // (arange(T) · second_per_grid · tokens_per_second).long(), h and w arange of the merged grid, each
    // + st, st the last id + 1), with second_per_grid 1 where 2 is declared (prepare_inputs_for_generation
    // without second_per_grid_ts): a mistake naming second-per-grid; with 2, correct.
    void secondPerGridIsNamed()
    {
        const auto ids = [](double secondPerGrid) {
            std::vector<std::vector<float>> axes(3);
            const auto text = [&](int n) {
                float st = axes[0].empty() ? 0.0f
                                           : 1.0f
                        + std::max({*std::max_element(axes[0].begin(), axes[0].end()),
                                    *std::max_element(axes[1].begin(), axes[1].end()),
                                    *std::max_element(axes[2].begin(), axes[2].end())});
                for (int k = 0; k < n; ++k)
                    for (auto &axis : axes)
                        axis.push_back(st + float(k));
            };
            text(6);
            const float st = 6.0f;
            for (int t = 0; t < 4; ++t)
                for (int h = 0; h < 4; ++h)
                    for (int w = 0; w < 4; ++w) {
                        axes[0].push_back(st + float(std::int64_t(double(t) * secondPerGrid * 2.0)));
                        axes[1].push_back(st + float(h));
                        axes[2].push_back(st + float(w));
                    }
            text(5);
            return axes;
        };
        QTemporaryDir dir;
        const QStringList flags {u"--vision-positions"_s,
                                 u"qwen2.5-vl"_s,
                                 u"--tokens-per-second"_s,
                                 u"2"_s,
                                 u"--spatial-merge-size"_s,
                                 u"2"_s,
                                 u"--mrope-era"_s,
                                 u"v4"_s,
                                 u"--prompt"_s,
                                 u"text:6,video:4x8x8@2,text:5"_s};
        const auto fixed = check(write(dir, u"fixed.npy"_s, ids(2.0)), flags, true);
        QVERIFY2(fixed.exitCode == 0, qPrintable(fixed.out + fixed.err));
        const auto buggy = check(write(dir, u"buggy.npy"_s, ids(1.0)), flags, true);
        QVERIFY2(buggy.exitCode == 1, qPrintable(buggy.out + buggy.err));
        QCOMPARE(verdictOf(buggy), std::pair(u"mistake"_s, QStringList {u"second-per-grid"_s}));
        QVERIFY2(buggy.out.contains(u"second-per-grid 1 where the declaration gives 2"_s), qPrintable(buggy.out));
    }

    // Held-out set 4's F4 (sentence-transformers#3879): RoBERTa's ids start at padding_idx + 1 = 2
    // (transformers' create_position_ids_from_input_ids: cumsum(mask) · mask + padding_idx), so
    // three packed documents of 5, 7 and 4 tokens want 2 + n in each; the flattening collator's 0 + n
    // is the mistake position-offset once --position-offset 2 declares the start.
    void idsFromAnotherStart()
    {
        QTemporaryDir dir;
        std::vector<float> roberta, collator;
        for (const int p : restarted({5, 7, 4})) {
            roberta.push_back(float(p + 2));
            collator.push_back(float(p));
        }
        const QStringList flags {u"--packed"_s, u"5,7,4"_s, u"--max-len"_s, u"16"_s, u"--position-offset"_s, u"2"_s};
        const auto fixed = check(write(dir, u"fixed.npy"_s, {roberta}), flags, true);
        QVERIFY2(fixed.exitCode == 0, qPrintable(fixed.out + fixed.err));
        const auto buggy = check(write(dir, u"buggy.npy"_s, {collator}), flags, true);
        QVERIFY2(buggy.exitCode == 1, qPrintable(buggy.out + buggy.err));
        QCOMPARE(verdictOf(buggy), std::pair(u"mistake"_s, QStringList {u"position-offset"_s}));
    }

    // A --preset that names no preset is refused (exit 2, the flag named), as the table's check
    // refuses it, never passed over (held-out set 4, F10).
    void unknownPresetIsRefused()
    {
        QTemporaryDir dir;
        const QString ids = write(dir, u"ids.npy"_s, idsOf(fixtureCase(u"left padding"_s)));
        const QStringList batch {u"--batch"_s, u"left:5,8,3"_s, u"--max-len"_s, u"8"_s};
        const auto refused = check(ids, batch + QStringList {u"--preset"_s, u"nonsense-xyz"_s});
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.contains(u"--preset"_s) && refused.err.contains(u"nonsense-xyz"_s),
                 qPrintable(refused.err));
    }

    // Without --max-len the ids' own width is the rows' length: a prefill of 8 and 3 decode steps (11
    // columns), and a packed row of 2100 tokens, past the default max_len of 1024.
    void theIdsWidthIsTheLength()
    {
        QTemporaryDir dir;
        const QJsonObject c = fixtureCase(u"decode after a prefill, left padding"_s);
        QStringList flags = flagsOf(c);
        const auto at = flags.indexOf(u"--max-len"_s);
        QVERIFY(at >= 0);
        flags.remove(at, 2);
        const auto decode = check(write(dir, u"ids.npy"_s, idsOf(c)), flags, true);
        QVERIFY2(decode.exitCode == 0, qPrintable(decode.err));
        QCOMPARE(verdictOf(decode).first, u"correct"_s);
        const std::vector<int> packed = restarted({1200, 900});
        const auto run = check(write(dir, u"packed.npy"_s, {std::vector<float>(packed.begin(), packed.end())}),
                               {u"--packed"_s, u"1200,900"_s}, true);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QCOMPARE(QJsonDocument::fromJson(run.out.toUtf8()).object().value(u"columns"_s).toInt(), 2100);
    }

    // A shape that is not the batch's is refused, naming the flag and the shape it must have.
    void shapeOfAnotherBatch()
    {
        QTemporaryDir dir;
        const auto run = check(write(dir, u"ids.npy"_s, idsOf(fixtureCase(u"left padding"_s))),
                               {u"--batch"_s, u"left:5,8"_s, u"--max-len"_s, u"8"_s});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.startsWith(u"posenc check: --position-ids: must be [B, L] = [2, 8]"_s), qPrintable(run.err));
    }

    // M-RoPE rows that end inside the default prompt's image (tokens 5 to 10): refused, naming the
    // flag that gave the rows.
    void mropeRowsCutAnImage_data()
    {
        QTest::addColumn<QStringList>("batch");
        QTest::addColumn<QString>("flag");
        QTest::newRow("lengths") << QStringList {u"--batch"_s, u"left:9"_s} << u"--batch"_s;
        QTest::newRow("mask") << QStringList {u"--attention-mask"_s, u"MASK"_s} << u"--attention-mask"_s;
        QTest::newRow("the row") << QStringList {} << u"--max-len"_s;
    }
    void mropeRowsCutAnImage()
    {
        QFETCH(QStringList, batch);
        QFETCH(QString, flag);
        QTemporaryDir dir;
        const QString mask = write(dir, u"mask.npy"_s, {std::vector<float>(9, 1.0f)});
        batch.replaceInStrings(u"MASK"_s, mask);
        std::vector<std::vector<float>> ids(3, std::vector<float>(9, 0.0f));
        const auto run = check(write(dir, u"ids.npy"_s, ids),
                               batch + QStringList {u"--encoding"_s, u"mrope"_s, u"--max-len"_s, u"9"_s});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(
            run.err.startsWith(u"posenc check: %1: row 0's real tokens (9) end inside the prompt's image"_s.arg(flag)),
            qPrintable(run.err));
        QCOMPARE(run.err.count(u'\n'), 1);
    }

    // A table of a packed or padded batch, its rows at their ids: read by position, correct.
    void tableAtItsIdsIsCorrect_data()
    {
        QTest::addColumn<std::vector<int>>("ids");
        QTest::newRow("packed 60,45,30") << restarted({60, 45, 30});
        // Two rows of transformers' left padding flattened, [B, L] -> [B·L]: the padding's id is 1.
        std::vector<int> padded {1, 1, 1};
        for (int p = 0; p < 61; ++p)
            padded.push_back(p);
        for (int p = 0; p < 64; ++p)
            padded.push_back(p);
        QTest::newRow("left padding") << padded;
    }

    void tableAtItsIdsIsCorrect()
    {
        QFETCH(std::vector<int>, ids);
        QTemporaryDir dir;
        std::vector<std::vector<float>> idRows(1);
        for (const int p : ids)
            idRows[0].push_back(float(p));
        const QString table = write(dir, u"pe.npy"_s, sinusoidRows(ids));
        const auto run = checkTable(table, write(dir, u"ids.npy"_s, idRows));
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        QCOMPARE(verdictOf(run), std::pair(u"correct"_s, QStringList {}));
        const auto text = checkTable(table, dir.filePath(u"ids.npy"_s), false);
        QVERIFY2(text.out.contains(u"rows read at their --position-ids"_s), qPrintable(text.out));
        // Read as it is, row by row, the same file is no sinusoid of its rows' index.
        QVERIFY(CliRun::posenc({u"check"_s, table}).exitCode != 0);
    }

    // A batch of a full row and a left-padded one (transformers' ids: the padding 1, then 0, 1, ...),
    // its PE taken at torch.arange(L) for both: the padded row's rows are not at their ids, and the
    // first that is not says whose row it holds.
    void tableNotAtItsIdsIsNamed()
    {
        QTemporaryDir dir;
        std::vector<int> ids, columns;
        for (int c = 0; c < 64; ++c)
            ids.push_back(c);
        for (const int p : {1, 1, 1})
            ids.push_back(p);
        for (int p = 0; p < 61; ++p)
            ids.push_back(p);
        for (int row = 0; row < 2; ++row)
            for (int c = 0; c < 64; ++c)
                columns.push_back(c);
        std::vector<std::vector<float>> idRows(2);
        for (std::size_t i = 0; i < ids.size(); ++i)
            idRows[i / 64].push_back(float(ids[i]));
        const QString idsFile = write(dir, u"ids.npy"_s, idRows);
        const auto run = checkTable(write(dir, u"pe.npy"_s, sinusoidRows(columns)), idsFile);
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(verdictOf(run), std::pair(u"mistake"_s, QStringList {u"rows-not-at-ids"_s}));
        const QString diagnosis = QJsonDocument::fromJson(run.out.toUtf8()).object().value(u"diagnosis"_s).toString();
        QVERIFY2(diagnosis.contains(u"row 64, at position 1, differs from row 1 (the first at 1)"_s),
                 qPrintable(diagnosis));
        QVERIFY2(diagnosis.contains(u"it is position 0's row"_s), qPrintable(diagnosis));
        // Row 65 (id 1, column 1) is position 1's row by chance; the other 2 + 61 are not.
        QVERIFY2(diagnosis.contains(u"63 of 128 rows"_s), qPrintable(diagnosis));
    }

    // Packed documents' PE taken at one running count while the ids restart: the rows past the first
    // document hold positions no id reaches, so no row is named as theirs.
    void runningCountIsNamed()
    {
        QTemporaryDir dir;
        const std::vector<int> ids = restarted({60, 45, 30});
        std::vector<int> running(ids.size());
        for (std::size_t r = 0; r < running.size(); ++r)
            running[r] = int(r);
        const QString idsFile = write(dir, u"ids.npy"_s, {std::vector<float>(ids.begin(), ids.end())});
        const auto run = checkTable(write(dir, u"pe.npy"_s, sinusoidRows(running)), idsFile);
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(verdictOf(run), std::pair(u"mistake"_s, QStringList {u"rows-not-at-ids"_s}));
        const QString diagnosis = QJsonDocument::fromJson(run.out.toUtf8()).object().value(u"diagnosis"_s).toString();
        QVERIFY2(diagnosis.contains(u"row 60, at position 0, differs from row 0"_s), qPrintable(diagnosis));
        QVERIFY2(!diagnosis.contains(u"it is position"_s), qPrintable(diagnosis));
        QVERIFY2(diagnosis.contains(u"75 of 135 rows"_s), qPrintable(diagnosis));
    }

    // Megatron-LM#453: a packed batch's RoPE cos cache taken at one running count (the rotary
    // embedding ignored position_ids) while the ids restart, the second document longer than the
    // first: read by position, ids 40..89 first appear in the second document, at rows 80..129 that
    // hold positions 80..129. That is the rows not at their ids seen from the table read by
    // position, said as a note, not a mistake of its own (an offset of every row is one). RoPE's
    // cos, half layout, theta 10000, head_dim 64, written here in float64.
    void runningCountPastTheFirstDocumentIsOneMistake()
    {
        QTemporaryDir dir;
        const QStringList declared {u"--expect"_s, u"rope"_s, u"--head-dim"_s, u"64"_s, u"--rope-theta"_s, u"10000"_s};
        // The rows of `ids` at a running count from `first`, checked against the ids.
        const auto checked = [&](const std::vector<int> &ids, int first, const QStringList &flags) {
            std::vector<std::vector<float>> table(ids.size(), std::vector<float>(64));
            for (std::size_t r = 0; r < ids.size(); ++r)
                for (int j = 0; j < 32; ++j)
                    table[r][std::size_t(j)] = table[r][std::size_t(j + 32)]
                        = float(std::cos(double(int(r) + first) * std::pow(1e4, -j / 32.0)));
            const QString idsFile = write(dir, u"ids.npy"_s, {std::vector<float>(ids.begin(), ids.end())});
            return CliRun::posenc(
                QStringList {u"check"_s, write(dir, u"cos.npy"_s, table), u"--position-ids"_s, idsFile, u"--json"_s}
                + flags);
        };
        for (const QStringList &flags : {QStringList {}, declared})
            QCOMPARE(verdictOf(checked(restarted({40, 90, 30}), 0, flags)),
                     std::pair(u"mistake"_s, QStringList {u"rows-not-at-ids"_s}));
        // The count from 5 over two documents of 40: the first document's rows, at their ids, off by 5
        // too, a mistake of its own.
        QCOMPARE(verdictOf(checked(restarted({40, 40}), 5, declared)),
                 std::pair(u"mistake"_s, QStringList {u"position-offset"_s, u"rows-not-at-ids"_s}));
    }

    void idsThatDoNotFitTheTable_data()
    {
        QTest::addColumn<std::vector<float>>("ids");
        QTest::addColumn<QString>("message");
        QTest::newRow("count") << std::vector<float>(5, 0.0f) << u"one id per row of the table (6 rows); got 5 ids"_s;
        QTest::newRow("gap") << std::vector<float> {0, 1, 3, 3, 4, 5} << u"no row is at position 2"_s;
        QTest::newRow("negative") << std::vector<float> {0, 1, -1, 2, 3, 4} << u"got -1 at row 2"_s;
        // Refused by the ids' reader, as in every command that reads ids (PositionIdsFile).
        QTest::newRow("fraction") << std::vector<float> {0, 1, 2.5f, 2, 3, 4}
                                  << u"the id at [0, 2] is 2.5, not a whole number"_s;
    }

    void idsThatDoNotFitTheTable()
    {
        QFETCH(std::vector<float>, ids);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const auto run = checkTable(write(dir, u"pe.npy"_s, sinusoidRows({0, 1, 2, 3, 4, 5})),
                                    write(dir, u"ids.npy"_s, {ids}), false);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.startsWith(u"posenc check: --position-ids: "_s) && run.err.contains(message),
                 qPrintable(run.err));
        QCOMPARE(run.err.count(u'\n'), 1);
        QVERIFY(run.out.isEmpty());
    }

    void distancesTableHoldsTheMasksNaN_data()
    {
        QTest::addColumn<QStringList>("family");
        QTest::newRow("one id a token") << QStringList {};
        QTest::newRow("M-RoPE over a text pack")
            << QStringList {u"--encoding"_s, u"mrope"_s, u"--prompt"_s, u"text:9"_s};
    }
    // The document-distance table is written as its help says: id(q) - id(k) where the mask lets
    // the query see the key, NaN where it hides the pair. Restarted ids under a causal mask only:
    // every key up to the query, at the ids 0 1 2 | 0 1 2 3 | 0 1.
    void distancesTableHoldsTheMasksNaN()
    {
        QFETCH(QStringList, family);
        const QTemporaryDir dir;
        const QString out = dir.filePath(u"distances.npy"_s);
        const CliRun::Run run
            = CliRun::posenc(QStringList {u"table"_s, u"document-distance"_s, u"--packed"_s, u"3,4,2"_s, u"--max-len"_s,
                                          u"9"_s, u"--ids-choice"_s, u"restarted-without-block-mask"_s, u"-o"_s, out}
                             + family);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const CliRun::Table t = CliRun::readNpy(out);
        QCOMPARE(t.rows, 9);
        QCOMPARE(t.cols, 9);
        const std::vector<int> ids = restarted({3, 4, 2});
        for (int q = 0; q < 9; ++q) {
            for (int k = 0; k < 9; ++k) {
                if (k <= q)
                    QCOMPARE(t.at(q, k), float(ids[std::size_t(q)] - ids[std::size_t(k)]));
                else
                    QVERIFY(std::isnan(t.at(q, k)));
            }
        }
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliPositions)
} // namespace tst_clipositions
#include "tst_clipositions.moc"
