// `posenc check --position-ids` on what held-out set 8 and r28a's review found open (issue 56):
// F9, a cache-offset quoted less the declared --position-offset (transformers#15751, M2M100's
// create_position_ids_from_inputs_embeds without past_key_values_length); [3, B, L] ids with a
// batch's flag and no prompt (refused before); rows of one batch with different prompts
// (--prompt 'P0;P1'); a text resume one off after an image (named mrope-axis-offset before);
// 1-D ids all text without a prompt (correct before); a [3, L] batch of three text rows (read as
// one M-RoPE row before). The ids are written here from their definitions: transformers'
// generation (attention_mask.long().cumsum(-1) - 1, the padding 1) and Qwen2-VL's get_rope_index
// (models/qwen2_vl/modeling_qwen2_vl.py: text t = h = w from st_idx, an image's llm grid
// (t, h / 2, w / 2) from st_idx with w fastest, the next text at the block's largest id + 1).
#include "CliRun.h"
#include "NpyBytes.h"
#include "support/TestMain.h"

#include <QtTest>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <algorithm>
#include <array>
#include <vector>

namespace tst_cliidsdeclared {
using namespace Qt::StringLiterals;

namespace {

using Ids = std::array<std::vector<double>, 3>; // t, h, w of one row

// get_rope_index's ids of text:5,image:1x4x6,text:3 (an image grid 1 x 4 x 6 in patches, merge 2).
Ids imagePrompt()
{
    Ids ids;
    const auto add = [&](double t, double h, double w) {
        ids[0].push_back(t);
        ids[1].push_back(h);
        ids[2].push_back(w);
    };
    for (int k = 0; k < 5; ++k)
        add(k, k, k);
    for (int h = 0; h < 2; ++h)
        for (int w = 0; w < 3; ++w)
            add(5, 5 + h, 5 + w);
    const double next = 5 + 2; // the image's largest id (w: 5 + 2) + 1 = 8
    for (int k = 0; k < 3; ++k)
        add(next + 1 + k, next + 1 + k, next + 1 + k);
    return ids;
}

// One row of text, left-padded: `padding` ids of 1, then 0, 1, ...
Ids textRow(int length, int padding, bool arange = false)
{
    Ids ids;
    for (int c = 0; c < length; ++c) {
        const double id = arange ? c : (c < padding ? 1.0 : double(c - padding));
        for (auto &axis : ids)
            axis.push_back(id);
    }
    return ids;
}

// [3, B, L] of rows.
std::vector<double> batchOf(const std::vector<Ids> &rows)
{
    std::vector<double> out;
    for (int a = 0; a < 3; ++a)
        for (const Ids &row : rows)
            out.insert(out.end(), row[std::size_t(a)].begin(), row[std::size_t(a)].end());
    return out;
}

struct Checked
{
    int exit = -1;
    QJsonObject json;
    QString text;
};

} // namespace

class CliIdsDeclared : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    Checked run(const std::vector<std::int64_t> &shape, const std::vector<double> &ids, const QStringList &flags)
    {
        const QString file = m_dir.filePath(u"ids.npy"_s);
        QFile f(file);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(npy(shape, ids)) < 0)
            return {};
        f.close();
        const CliRun::Run j = CliRun::posenc(QStringList {u"check"_s, u"--position-ids"_s, file, u"--json"_s} + flags);
        const CliRun::Run t = CliRun::posenc(QStringList {u"check"_s, u"--position-ids"_s, file} + flags);
        return {j.exitCode, QJsonDocument::fromJson(j.out.toUtf8()).object(), t.out + t.err};
    }

private slots:
    // F9 (B17): ids from padding_idx + 1 = 2, the decode steps restarting at 2: quoted as the file
    // holds them (2), the expected 12.
    void cacheOffsetQuotesTheFilesIds()
    {
        std::vector<double> ids;
        for (int c = 0; c < 10; ++c)
            ids.push_back(2 + c);
        for (int c = 0; c < 8; ++c)
            ids.push_back(2);
        const Checked c = run({1, 18}, ids, {u"--cache"_s, u"10"_s, u"--position-offset"_s, u"2"_s});
        QVERIFY2(c.json[u"mistakes"_s].toArray().contains(u"cache-offset"_s), qPrintable(c.text));
        const QJsonObject first = c.json[u"first_difference"_s].toObject();
        QCOMPARE(first[u"column"_s].toInt(), 10);
        QCOMPARE(first[u"given"_s].toInt(), 2);
        QCOMPARE(first[u"reference"_s].toInt(), 12);
        QVERIFY2(c.text.contains(u"are all 2, not advancing"_s), qPrintable(c.text));
    }

    // [3, B, L] text rows with --batch, --attention-mask's equal and --packed, no prompt: checked.
    void textRowsWithABatchFlag()
    {
        const QStringList left {u"--batch"_s, u"left:24,20"_s};
        const Checked right = run({3, 2, 24}, batchOf({textRow(24, 0), textRow(24, 4)}), left);
        QVERIFY2(right.exit == 7 && right.json[u"verdict"_s].toString() == u"unknown"_s, qPrintable(right.text));
        QVERIFY2(right.text.contains(u"every real token reads as text"_s), qPrintable(right.text));
        const Checked arange = run({3, 2, 24}, batchOf({textRow(24, 0), textRow(24, 4, true)}), left);
        QVERIFY2(arange.json[u"mistakes"_s].toArray().contains(u"arange-with-padding"_s), qPrintable(arange.text));
        Ids pack;
        for (const int length : {3, 4, 2})
            for (int k = 0; k < length; ++k)
                for (auto &axis : pack)
                    axis.push_back(k);
        const Checked packed = run({3, 1, 9}, batchOf({pack}), {u"--packed"_s, u"3,4,2"_s});
        QVERIFY2(packed.exit == 0 && packed.json[u"verdict"_s].toString() == u"correct"_s, qPrintable(packed.text));
        // Ids with an image and a batch but no prompt: refused, naming --prompt.
        const Checked vision = run({3, 2, 11 + 3}, batchOf({imagePrompt(), imagePrompt()}), {u"--batch"_s, u"left:14,14"_s});
        QVERIFY2(vision.exit == 2 && vision.text.contains(u"--prompt"_s), qPrintable(vision.text));
    }

    // Rows of one batch with different prompts, one a row: each row against its own.
    void onePromptARow()
    {
        const QStringList flags {u"--batch"_s, u"left:14,10"_s, u"--prompt"_s, u"text:5,image:1x4x6,text:3;text:10"_s};
        const Checked right = run({3, 2, 14}, batchOf({imagePrompt(), textRow(14, 4)}), flags);
        QVERIFY2(right.exit == 0 && right.json[u"verdict"_s].toString() == u"correct"_s, qPrintable(right.text));
        const Checked wrong = run({3, 2, 14}, batchOf({imagePrompt(), textRow(14, 4, true)}), flags);
        QVERIFY2(wrong.json[u"mistakes"_s].toArray().contains(u"arange-with-padding"_s), qPrintable(wrong.text));
        QCOMPARE(wrong.json[u"first_difference"_s].toObject()[u"row"_s].toInt(), 1);
        // One prompt for both rows cuts row 1's image: refused, the per-row form said.
        const Checked one = run({3, 2, 14}, batchOf({imagePrompt(), textRow(14, 4)}),
                                {u"--batch"_s, u"left:14,10"_s, u"--prompt"_s, u"text:5,image:1x4x6,text:3"_s});
        QVERIFY2(one.exit == 2 && one.text.contains(u"'P0;P1;…'"_s), qPrintable(one.text));
    }

    // The text after the image resumed at its largest id + 2: off-by-one, not mrope-axis-offset.
    void resumeOneOffIsOffByOne()
    {
        Ids ids = imagePrompt();
        for (auto &axis : ids)
            for (std::size_t c = 11; c < axis.size(); ++c)
                axis[c] += 1;
        const Checked c = run({3, 1, 14}, batchOf({ids}), {u"--prompt"_s, u"text:5,image:1x4x6,text:3"_s});
        const QJsonArray mistakes = c.json[u"mistakes"_s].toArray();
        QVERIFY2(mistakes.contains(u"off-by-one"_s) && !mistakes.contains(u"mrope-axis-offset"_s), qPrintable(c.text));
        QVERIFY2(c.text.contains(u"starts at id 9 where get_rope_index starts it at 8"_s), qPrintable(c.text));
        const Checked right = run({3, 1, 14}, batchOf({imagePrompt()}), {u"--prompt"_s, u"text:5,image:1x4x6,text:3"_s});
        QCOMPARE(right.json[u"verdict"_s].toString(), u"correct"_s);
    }

    // t = h = w = arange over every token, no prompt: unknown (1-D positions read the same); a
    // declared text prompt makes it correct.
    void allTextWithoutAPromptIsUnknown()
    {
        const std::vector<double> ids = batchOf({textRow(14, 0)});
        const Checked alone = run({3, 1, 14}, ids, {});
        QVERIFY2(alone.exit == 7 && alone.json[u"verdict"_s].toString() == u"unknown"_s, qPrintable(alone.text));
        QVERIFY2(alone.text.contains(u"mrope-1d-positions"_s), qPrintable(alone.text));
        const Checked text = run({3, 1, 14}, ids, {u"--prompt"_s, u"text:14"_s});
        QCOMPARE(text.json[u"verdict"_s].toString(), u"correct"_s);
    }

    // [3, L] of three left-padded text rows: a batch's [B, L], not one M-RoPE row.
    void threeTextRowsAreABatch()
    {
        std::vector<double> ids;
        for (const int padding : {0, 2, 3})
            for (int c = 0; c < 8; ++c)
                ids.push_back(c < padding ? 1.0 : double(c - padding));
        const Checked c = run({3, 8}, ids, {});
        QVERIFY2(c.json[u"verdict"_s].toString() == u"correct"_s && c.json[u"rows"_s].toInt() == 3
                     && c.json[u"axes"_s].toInt() == 1,
                 qPrintable(c.text));
    }
};

POSENC_TEST_GUILESS_MAIN(CliIdsDeclared)
} // namespace tst_cliidsdeclared
#include "tst_cliidsdeclared.moc"
