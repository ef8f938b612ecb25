// posenc check --position-ids: the classes of mistake held-out set 7 found unnamed (F1, F2, F6) and
// issue 59's item 5 (every named mistake in every batch form).
// - M-RoPE ids against a declared prompt: the cases of tests/data/mroperules/cases.json, recorded
//   with torch from transformers' get_rope_index (Qwen2VLModel's and Qwen2_5_VLModel's, copied in
//   tests/data/make_mrope_rules_fixture.py) and from the mistakes as ports wrote them.
// - The same ids without --prompt ([3, 1, L], once refused as "must be [B, L]"): read by their own
//   structure, the prompt read from them said in the segments of the case's prompt.
// - One id a token: the reference's ids written here from transformers' definitions
//   (attention_mask.cumsum(-1) - 1, the padding 1; a decode step the row's real tokens before it;
//   the flattening collator's restart), each mistake's from its own, in every batch form.
#include "NpyBytes.h"
#include "PositionIdsRun.h"
#include "support/TestMain.h"

#include <QJsonArray>
#include <QTest>

#include <algorithm>

namespace tst_clipositionsclasses {
using namespace Qt::StringLiterals;
using namespace PositionIdsRun;

namespace {

QJsonArray fixtureCases()
{
    QFile file(QStringLiteral(POSENC_MROPE_RULES));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read the fixture");
    return QJsonDocument::fromJson(file.readAll()).object().value(u"cases"_s).toArray();
}

QJsonObject fixtureRulesCase(const QString &name)
{
    for (const QJsonValue &c : fixtureCases())
        if (c.toObject().value(u"name"_s).toString() == name)
            return c.toObject();
    qFatal("no case %s", qPrintable(name));
}

QString writeCase(const QTemporaryDir &dir, const QJsonObject &c)
{
    std::vector<std::int64_t> shape;
    for (const QJsonValue &n : c.value(u"shape"_s).toArray())
        shape.push_back(n.toInteger());
    std::vector<double> values;
    for (const QJsonValue &v : c.value(u"ids"_s).toArray())
        values.push_back(v.toDouble());
    const QString path = dir.filePath(u"ids.npy"_s);
    QFile file(path);
    const QByteArray bytes = npy(shape, values);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

QStringList flagsOfCase(const QJsonObject &c)
{
    QStringList flags;
    for (const QJsonValue &f : c.value(u"flags"_s).toArray())
        flags.append(f.toString());
    return flags;
}

// A batch of one id a token: each row's real mask, the columns from `cache` on decode steps.
struct Form
{
    QStringList flags;
    std::vector<std::vector<int>> mask; // 1 real, 0 padding
    std::vector<std::vector<int>> documents; // each real token's document in its row (packs), else empty
    int cache = 0;
};

Form form(const QString &name, const QTemporaryDir &dir)
{
    const std::vector<std::vector<int>> left = kLeftMask;
    std::vector<std::vector<int>> right;
    for (const auto &row : left) {
        std::vector<int> r(row.size(), 0);
        std::fill_n(r.begin(), std::count(row.begin(), row.end(), 1), 1);
        right.push_back(r);
    }
    const auto decode = [](std::vector<std::vector<int>> mask, int steps) {
        for (auto &row : mask)
            row.insert(row.end(), std::size_t(steps), 1);
        return mask;
    };
    if (name == u"left"_s)
        return {{u"--batch"_s, u"left:5,8,3"_s, u"--max-len"_s, u"8"_s}, left, {}, 0};
    if (name == u"right"_s)
        return {{u"--batch"_s, u"right:5,8,3"_s, u"--max-len"_s, u"8"_s}, right, {}, 0};
    if (name == u"mask file"_s) {
        std::vector<std::vector<float>> rows;
        for (const auto &row : left)
            rows.emplace_back(row.begin(), row.end());
        return {{u"--attention-mask"_s, write(dir, u"mask.npy"_s, rows)}, left, {}, 0};
    }
    if (name == u"left with a cache"_s)
        return {{u"--batch"_s, u"left:5,8,3"_s, u"--max-len"_s, u"11"_s, u"--cache"_s, u"8"_s}, decode(left, 3), {}, 8};
    if (name == u"right with a cache"_s)
        return {
            {u"--batch"_s, u"right:5,8,3"_s, u"--max-len"_s, u"11"_s, u"--cache"_s, u"8"_s}, decode(right, 3), {}, 8};
    if (name == u"one row with a cache"_s)
        return {{u"--cache"_s, u"30"_s, u"--max-len"_s, u"38"_s}, {std::vector<int>(38, 1)}, {}, 30};
    // --packed 3,4,2/5,4: two rows of nine columns, each full.
    return {{u"--packed"_s, u"3,4,2/5,4"_s, u"--max-len"_s, u"9"_s},
            {std::vector<int>(9, 1), {1, 1, 1, 1, 1, 1, 1, 1, 1}},
            {{0, 0, 0, 1, 1, 1, 1, 2, 2}, {0, 0, 0, 0, 0, 1, 1, 1, 1}},
            0};
}

// transformers' ids for the form: generation's cumsum(-1) - 1 (the padding 1, a decode step the
// row's real tokens before it), or the collator's restart at each document.
std::vector<std::vector<int>> referenceIds(const Form &f)
{
    std::vector<std::vector<int>> ids;
    for (std::size_t b = 0; b < f.mask.size(); ++b) {
        std::vector<int> row;
        int real = 0, at = 0;
        for (std::size_t c = 0; c < f.mask[b].size(); ++c) {
            if (!f.documents.empty()) {
                at = c > 0 && f.documents[b][c] == f.documents[b][c - 1] ? at + 1 : 0;
                row.push_back(at);
                continue;
            }
            row.push_back(f.mask[b][c] ? real : 1);
            real += f.mask[b][c];
        }
        ids.push_back(row);
    }
    return ids;
}

// The mistake's ids, from its definition.
std::vector<std::vector<float>> mistakeIds(const Form &f, const QString &mistake)
{
    const auto reference = referenceIds(f);
    std::vector<std::vector<float>> out;
    for (std::size_t b = 0; b < reference.size(); ++b) {
        std::vector<float> row;
        for (std::size_t c = 0; c < reference[b].size(); ++c) {
            const bool real = f.mask[b][c] == 1, decode = f.cache > 0 && int(c) >= f.cache;
            int id = reference[b][c];
            if (mistake == u"arange-with-padding"_s || mistake == u"positions-not-restarted"_s)
                id = int(c); // arange(L): the padding before counted, or one count over the documents
            else if (mistake == u"off-by-one"_s && real)
                id += 1;
            else if (mistake == u"cache-offset"_s && decode)
                id = int(c) - f.cache; // cache_position without the cache: from 0
            else if (mistake == u"position-offset, off-by-one"_s && real)
                id += decode ? 1 : 30; // flash-linear-attention#747's upper layer: prefill + its length, steps + 1
            else if (mistake == u"position-offset, cache-offset"_s && real)
                id += decode ? 5 : 2;
            row.push_back(float(id));
        }
        out.push_back(row);
    }
    return out;
}

QJsonObject report(const CliRun::Run &run)
{
    return QJsonDocument::fromJson(run.out.toUtf8()).object();
}

} // namespace

class TestCliPositionsClasses : public QObject
{
    Q_OBJECT

private slots:
    void mropeMistakesAgainstADeclaredPrompt_data()
    {
        QTest::addColumn<QJsonObject>("c");
        for (const QJsonValue &c : fixtureCases())
            QTest::newRow(qPrintable(c.toObject().value(u"name"_s).toString())) << c.toObject();
    }
    // Each case's verdict and mistake, as the fixture records them; no word of a batch where none
    // is declared (F1: "the batch assumed where none is declared" beside a declared prompt).
    void mropeMistakesAgainstADeclaredPrompt()
    {
        QFETCH(QJsonObject, c);
        QTemporaryDir dir;
        const auto run = check(writeCase(dir, c), flagsOfCase(c), true);
        QStringList mistakes;
        for (const QJsonValue &m : c.value(u"mistakes"_s).toArray())
            mistakes.append(m.toString());
        const QString verdict = c.value(u"verdict"_s).toString();
        QVERIFY2(run.exitCode
                     == (verdict == u"correct"_s       ? 0
                             : verdict == u"mistake"_s ? 1
                                                       : 7),
                 qPrintable(run.err + run.out));
        QCOMPARE(verdictOf(run), std::pair(verdict, mistakes));
        if (!flagsOfCase(c).contains(u"--batch"_s))
            QVERIFY2(!report(run).value(u"detail"_s).toString().contains(u"batch"_s), qPrintable(run.out));
    }

    // A preset declares the model's vision positions as --vision-positions does: each single-row case
    // of the fixture with its rule given by the preset of that model instead, the same verdict and
    // mistake (the ids' check read neither --preset nor --config: Qwen2-VL's grid-index t ids were
    // `correct` under --preset qwen2-5-vl-7b).
    void aPresetDeclaresTheVisionPositions_data()
    {
        QTest::addColumn<QJsonObject>("c");
        QTest::addColumn<QStringList>("flags");
        for (const QJsonValue &v : fixtureCases()) {
            const QJsonObject c = v.toObject();
            QStringList flags = flagsOfCase(c);
            const qsizetype at = flags.indexOf(u"--vision-positions"_s);
            if (at < 0 || flags.contains(u"--batch"_s))
                continue;
            const QString preset = flags.at(at + 1) == u"qwen2.5-vl"_s ? u"qwen2-5-vl-7b"_s : u"qwen2-vl-7b"_s;
            flags.replace(at, u"--preset"_s);
            flags.replace(at + 1, preset);
            QTest::newRow(qPrintable(c.value(u"name"_s).toString())) << c << flags;
        }
    }
    void aPresetDeclaresTheVisionPositions()
    {
        QFETCH(QJsonObject, c);
        QFETCH(QStringList, flags);
        QTemporaryDir dir;
        const auto run = check(writeCase(dir, c), flags, true);
        QStringList mistakes;
        for (const QJsonValue &m : c.value(u"mistakes"_s).toArray())
            mistakes.append(m.toString());
        QCOMPARE(verdictOf(run), std::pair(c.value(u"verdict"_s).toString(), mistakes));
    }

    // The undeclared rule's time: unknown, naming Qwen2.5-VL's rule and the flag that declares it.
    void undeclaredRuleIsSaid()
    {
        QTemporaryDir dir;
        const QJsonObject c = fixtureRulesCase(u"video Qwen2.5-VL's time, no rule declared"_s);
        const auto run = check(writeCase(dir, c), flagsOfCase(c), true);
        const QString detail = report(run).value(u"detail"_s).toString();
        QVERIFY2(detail.contains(u"Qwen2.5-VL"_s) && detail.contains(u"--vision-positions qwen2.5-vl"_s)
                     && detail.contains(u"second_per_grid 2"_s),
                 qPrintable(detail));
    }

    void threeAxesWithoutAPrompt_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("verdict");
        QTest::addColumn<QString>("read"); // the prompt read, in the fixture's segments
        QTest::newRow("video") << u"video reference"_s << u"correct"_s << u"text:6,video:4x16x16,text:10"_s;
        QTest::newRow("image") << u"image reference"_s << u"correct"_s << u"text:5,image:1x12x16,text:9"_s;
        QTest::newRow("mixed") << u"mixed reference"_s << u"correct"_s
                               << u"text:4,image:1x4x6,text:3,video:3x4x4,text:2"_s;
        // All text: unknown, since 1-D positions over an image read the same (r28a, finding 4c).
        QTest::newRow("1-D over an image") << u"image 1-D"_s << u"unknown"_s << u"text:62"_s;
        QTest::newRow("text at the token count")
            << u"image text resumes at the token count"_s << u"unknown"_s << QString();
        QTest::newRow("batch left") << u"batch left reference"_s << u"correct"_s
                                    << u"text:4,image:1x4x6,text:3,video:3x4x4,text:2"_s;
    }
    // [3, B, L] ids without --prompt or a batch flag (F2): read as what they are, never refused.
    void threeAxesWithoutAPrompt()
    {
        QFETCH(QString, name);
        QFETCH(QString, verdict);
        QFETCH(QString, read);
        QTemporaryDir dir;
        const auto run = check(writeCase(dir, fixtureRulesCase(name)), {}, true);
        QVERIFY2(run.exitCode == (verdict == u"correct"_s ? 0 : 7), qPrintable(run.err + run.out));
        QCOMPARE(verdictOf(run).first, verdict);
        const QString detail = report(run).value(u"detail"_s).toString();
        QVERIFY2(read.isEmpty() || detail.contains(read), qPrintable(detail));
        if (read == u"text:62"_s) // all text: the detail names the 1-D class
            QVERIFY2(run.out.contains(u"mrope-1d-positions"_s), qPrintable(run.out));
        if (read.isEmpty())
            QVERIFY2(detail.contains(u"token count"_s), qPrintable(detail));
        // A single unpadded row: every column a real token, a reading stopped short included.
        if (!name.startsWith(u"batch"_s))
            QCOMPARE(report(run).value(u"real_tokens"_s).toInteger(), report(run).value(u"columns"_s).toInteger());
        if (name == u"video reference"_s) // the fixture's video: second_per_grid 2 at tokens_per_second 2
            QVERIFY2(detail.contains(u"second_per_grid · tokens_per_second = %1"_s.arg(2 * 2)), qPrintable(detail));
    }

    void batchRowsWithoutAFlag_data()
    {
        QTest::addColumn<QString>("fill");
        QTest::addColumn<bool>("left");
        QTest::addColumn<QString>("verdict");
        QTest::newRow("left, masked_fill 1") << u"1"_s << true << u"correct"_s;
        QTest::newRow("left, clamped to 0") << u"0"_s << true << u"correct"_s;
        QTest::newRow("left, cumsum - 1 unfilled") << u"unfilled"_s << true << u"correct"_s;
        QTest::newRow("right, masked_fill 1") << u"1"_s << false << u"correct"_s;
        QTest::newRow("right, cumsum - 1 unfilled") << u"unfilled"_s << false << u"correct"_s;
        QTest::newRow("arange on every row") << u"arange"_s << true << u"unknown"_s;
        QTest::newRow("a row off by one") << u"off"_s << true << u"unknown"_s;
    }
    // A batch's [B, L] ids with no flag: read against generation's ids for the padding its fill
    // shows, ids = cumsum(mask) - 1 over each row's mask (rows of 24, 18, 5 and 12 real tokens in 24
    // columns) with the padding filled as the form does; all arange(L) cannot be told from
    // arange-with-padding, and a row no padding gives is unknown; never refused.
    void batchRowsWithoutAFlag()
    {
        QFETCH(QString, fill);
        QFETCH(bool, left);
        QFETCH(QString, verdict);
        const std::int64_t columns = 24;
        const std::vector<std::int64_t> real {24, 18, 5, 12};
        std::vector<double> ids;
        for (const std::int64_t n : real) {
            double cumsum = 0.0;
            for (std::int64_t c = 0; c < columns; ++c) {
                const bool token = left ? c >= columns - n : c < n;
                cumsum += token ? 1.0 : 0.0;
                double id = cumsum - 1.0;
                if (!token && fill != u"unfilled"_s)
                    id = fill == u"0"_s ? std::max(id, 0.0) : 1.0;
                if (fill == u"arange"_s)
                    id = double(c);
                if (fill == u"off"_s && token && n == 18)
                    id += 1.0;
                ids.push_back(id);
            }
        }
        QTemporaryDir dir;
        const QString path = dir.filePath(u"ids.npy"_s);
        QFile file(path);
        const QByteArray bytes = npy({std::int64_t(real.size()), columns}, ids);
        QVERIFY(file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size());
        file.close();
        const auto run = check(path, {}, true);
        QVERIFY2(run.exitCode == (verdict == u"correct"_s ? 0 : 7), qPrintable(run.err + run.out));
        QCOMPARE(verdictOf(run).first, verdict);
        if (verdict == u"correct"_s)
            QCOMPARE(report(run).value(u"real_tokens"_s).toInteger(), 24 + 18 + 5 + 12);
        else
            QVERIFY2(report(run).value(u"notes"_s).toArray().first().toString().contains(u"--attention-mask"_s),
                     qPrintable(run.out));
    }

    // What is truly unusable is still refused, in one line naming the shapes it takes (F2).
    void unusableShapeNamesTheForms()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"ids.npy"_s);
        QFile file(path);
        const QByteArray bytes = npy({2, 1, 10}, std::vector<double>(20, 0.0));
        QVERIFY(file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size());
        file.close();
        const auto run = check(path, {});
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(run.err.count(u'\n'), 1);
        QVERIFY2(run.err.contains(u"[B, L] = [1, 10]"_s) && run.err.contains(u"M-RoPE's [3, B, L]"_s),
                 qPrintable(run.err));
    }

    void everyMistakeInEveryBatchForm_data()
    {
        QTest::addColumn<QString>("formName");
        QTest::addColumn<QString>("mistake");
        const QList<std::pair<QString, QStringList>> combos {
            {u"left"_s, {u"arange-with-padding"_s, u"off-by-one"_s}},
            {u"right"_s, {u"off-by-one"_s}},
            {u"mask file"_s, {u"arange-with-padding"_s, u"off-by-one"_s}},
            {u"left with a cache"_s,
             {u"arange-with-padding"_s, u"off-by-one"_s, u"cache-offset"_s, u"position-offset, off-by-one"_s,
              u"position-offset, cache-offset"_s}},
            {u"right with a cache"_s,
             {u"arange-with-padding"_s, u"off-by-one"_s, u"cache-offset"_s, u"position-offset, cache-offset"_s}},
            {u"one row with a cache"_s,
             {u"off-by-one"_s, u"cache-offset"_s, u"position-offset, off-by-one"_s,
              u"position-offset, cache-offset"_s}},
            {u"packed"_s, {u"positions-not-restarted"_s, u"off-by-one"_s}},
        };
        for (const auto &[name, mistakes] : combos)
            for (const QString &m : mistakes)
                QTest::newRow(qPrintable(name + u": "_s + m)) << name << m;
    }
    // Each mistake named, with its parts where two parts are each off by their own constant (F6).
    void everyMistakeInEveryBatchForm()
    {
        QFETCH(QString, formName);
        QFETCH(QString, mistake);
        QTemporaryDir dir;
        const Form f = form(formName, dir);
        const auto run = check(write(dir, u"ids.npy"_s, mistakeIds(f, mistake)), f.flags, true);
        QVERIFY2(run.exitCode == 1, qPrintable(run.err + run.out));
        QCOMPARE(verdictOf(run), std::pair(u"mistake"_s, mistake.split(u", "_s)));
    }

    // The reference's own ids in every form: correct.
    void referenceInEveryBatchForm_data()
    {
        QTest::addColumn<QString>("formName");
        for (const char *name : {"left", "right", "mask file", "left with a cache", "right with a cache",
                                 "one row with a cache", "packed"})
            QTest::newRow(name) << QString::fromLatin1(name);
    }
    void referenceInEveryBatchForm()
    {
        QFETCH(QString, formName);
        QTemporaryDir dir;
        const Form f = form(formName, dir);
        const auto run = check(write(dir, u"ids.npy"_s, mistakeIds(f, u"reference"_s)), f.flags, true);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    }

    // One row of a batch shifted whole, without a cache: that row's offset, position-offset, never
    // cache-offset (no step after a cache is there).
    void oneRowShiftedWhole_data()
    {
        QTest::addColumn<QString>("formName");
        QTest::newRow("left") << u"left"_s;
        QTest::newRow("mask file") << u"mask file"_s;
        QTest::newRow("packed") << u"packed"_s;
    }
    void oneRowShiftedWhole()
    {
        QFETCH(QString, formName);
        QTemporaryDir dir;
        const Form f = form(formName, dir);
        auto ids = mistakeIds(f, u"reference"_s);
        for (std::size_t c = 0; c < ids[1].size(); ++c)
            ids[1][c] += f.mask[1][c] ? 3.0f : 0.0f; // row 1's real tokens from 3
        const auto run = check(write(dir, u"ids.npy"_s, ids), f.flags, true);
        QVERIFY2(run.exitCode == 1, qPrintable(run.err + run.out));
        QCOMPARE(verdictOf(run), std::pair(u"mistake"_s, QStringList {u"position-offset"_s}));
        QVERIFY2(report(run).value(u"detail"_s).toString().contains(u"row 1's ids (columns 0-"_s), qPrintable(run.out));
    }

    // A row whose real tokens all hold one id, with no cache before them: positions-constant, not a
    // step after a cache. Held-out set 12's B15: text-generation-inference#2714, Qwen2-VL's ids of a
    // text-only prompt left at torch.ones(3, B, L) where get_rope_index gives arange(L) on t, h and w;
    // and a 1-D batch's row of zeros.
    void oneRowAtOneId_data()
    {
        QTest::addColumn<QString>("formName");
        QTest::addColumn<float>("id");
        QTest::newRow("left, all 0") << u"left"_s << 0.0f;
        QTest::newRow("mask file, all 4") << u"mask file"_s << 4.0f;
    }
    void oneRowAtOneId()
    {
        QFETCH(QString, formName);
        QFETCH(float, id);
        QTemporaryDir dir;
        const Form f = form(formName, dir);
        auto ids = mistakeIds(f, u"reference"_s);
        for (std::size_t c = 0; c < ids[1].size(); ++c)
            ids[1][c] = f.mask[1][c] ? id : ids[1][c];
        const auto run = check(write(dir, u"ids.npy"_s, ids), f.flags, true);
        QVERIFY2(run.exitCode == 1, qPrintable(run.err + run.out));
        QCOMPARE(verdictOf(run), std::pair(u"mistake"_s, QStringList {u"positions-constant"_s}));
        const QString words = u"row 1's ids are all %1, not advancing"_s.arg(int(id));
        QVERIFY2(report(run).value(u"detail"_s).toString().contains(words), qPrintable(run.out));
    }
    // Tokens after a cache all at the id the cache leaves off at (jundot/omlx PR#2363: a decode window
    // of M-RoPE text ids broadcast at its start, get_rope_index's text arange(130)'s next 130, 131, ..
    // left at 130): positions-constant with the cache said; steps at 0 instead (each step's offset
    // lost) stay cache-offset, and the window advancing is correct.
    void windowAfterACacheAtOneId_data()
    {
        QTest::addColumn<float>("stuck");
        QTest::addColumn<QString>("named");
        QTest::newRow("at the cache's end") << 130.0f << u"positions-constant"_s;
        QTest::newRow("at 0") << 0.0f << u"cache-offset"_s;
        QTest::newRow("advancing") << -1.0f << QString();
    }
    void windowAfterACacheAtOneId()
    {
        QFETCH(float, stuck);
        QFETCH(QString, named);
        QTemporaryDir dir;
        std::vector<double> ids; // [3, 1, 135]: t, h and w alike
        for (int axis = 0; axis < 3; ++axis)
            for (int c = 0; c < 135; ++c)
                ids.push_back(c < 131 || stuck < 0 ? double(c) : double(stuck));
        QFile file(dir.filePath(u"ids.npy"_s));
        QVERIFY(file.open(QIODevice::WriteOnly) && file.write(npy({3, 1, 135}, ids)) > 0);
        file.close();
        const auto run = check(file.fileName(), {u"--cache"_s, u"130"_s}, true);
        if (named.isEmpty()) {
            QVERIFY2(run.exitCode != 1, qPrintable(run.err + run.out));
            return;
        }
        QVERIFY2(run.exitCode == 1, qPrintable(run.err + run.out));
        QCOMPARE(verdictOf(run), std::pair(u"mistake"_s, QStringList {named}));
        if (named == u"positions-constant"_s)
            QVERIFY2(report(run).value(u"detail"_s).toString().contains(u"continuing from the cache of 130"_s),
                     qPrintable(run.out));
    }

    // Two images, the second's tokens at text positions (Blaizzy/mlx-vlm#1282: get_rope_index summed
    // the vision starts into one index and counted one image): mrope-1d-positions said of that image
    // alone, the fixed ids correct. The ids are Qwen2VLModel.get_rope_index's (transformers 4.x,
    // models/qwen2_vl/modeling_qwen2_vl.py): text st + arange(n); an image of llm grid (1, h, w) at
    // st + (0, i, j); the next block from the largest id + 1.
    void oneImageOfTwoAsText()
    {
        QTemporaryDir dir;
        const auto idsOf = [](bool secondAsText) {
            std::vector<std::vector<float>> ids(3);
            float next = 0.0f;
            const auto text = [&](int n) {
                for (int k = 0; k < n; ++k)
                    for (auto &axis : ids)
                        axis.push_back(next + float(k));
                next += float(n);
            };
            const auto image = [&](int h, int w) {
                float most = next;
                for (int i = 0; i < h; ++i)
                    for (int j = 0; j < w; ++j) {
                        ids[0].push_back(next);
                        ids[1].push_back(next + float(i));
                        ids[2].push_back(next + float(j));
                        most = std::max({most, next + float(i), next + float(j)});
                    }
                next = most + 1.0f;
            };
            text(10);
            image(4, 6); // image:1x8x12 at spatial_merge_size 2
            text(6);
            if (secondAsText)
                text(16);
            else
                image(4, 4);
            text(5);
            return ids;
        };
        const QString prompt = u"text:10,image:1x8x12,text:6,image:1x8x8,text:5"_s;
        const QStringList flags {u"--prompt"_s, prompt,           u"--vision-positions"_s,
                                 u"qwen2-vl"_s, u"--mrope-era"_s, u"v4"_s};
        const auto buggy = check(write(dir, u"buggy.npy"_s, idsOf(true)), flags, true);
        QCOMPARE(verdictOf(buggy), std::pair(u"mistake"_s, QStringList {u"mrope-1d-positions"_s}));
        QVERIFY2(buggy.out.contains(u"the image at prompt tokens 40-55"_s), qPrintable(buggy.out));
        QVERIFY2(buggy.out.contains(u"1 of the prompt's 2 vision blocks"_s), qPrintable(buggy.out));
        const auto fixed = check(write(dir, u"fixed.npy"_s, idsOf(false)), flags, true);
        QCOMPARE(verdictOf(fixed).first, u"correct"_s);
    }
    void textOnlyMropeIdsAtOne()
    {
        QTemporaryDir dir;
        const std::vector<std::vector<float>> ones(3, std::vector<float>(48, 1.0f));
        std::vector<std::vector<float>> arange(3, std::vector<float>(48));
        for (auto &axis : arange)
            for (std::size_t c = 0; c < axis.size(); ++c)
                axis[c] = float(c);
        const QStringList prompt {u"--prompt"_s, u"text:48"_s};
        const auto buggy = check(write(dir, u"ones.npy"_s, ones), prompt, true);
        QCOMPARE(verdictOf(buggy), std::pair(u"mistake"_s, QStringList {u"positions-constant"_s}));
        const auto fixed = check(write(dir, u"arange.npy"_s, arange), prompt, true);
        QCOMPARE(verdictOf(fixed).first, u"correct"_s);
    }

    // F6 in words: each part with its columns and its id.
    void compositeNamesItsParts()
    {
        QTemporaryDir dir;
        const Form f = form(u"one row with a cache"_s, dir);
        const auto run
            = check(write(dir, u"ids.npy"_s, mistakeIds(f, u"position-offset, off-by-one"_s)), f.flags, true);
        const QString detail = report(run).value(u"detail"_s).toString();
        QVERIFY2(detail.contains(u"row 0's prefill (columns 0-29): the reference's +30"_s)
                     && detail.contains(u"row 0's decode steps (columns 30-37): the reference's +1, off-by-one"_s),
                 qPrintable(detail));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliPositionsClasses)
} // namespace tst_clipositionsclasses
#include "tst_clipositionsclasses.moc"
