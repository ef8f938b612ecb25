// The query-key distances of a packed row (DocumentDistance, the document-distance table): every
// count and sum in closed form against the pairs counted one by one here, under the reference's
// block mask, with positions that run on across documents, and restarted positions under a causal
// mask only (where cross-document pairs of negative distance appear, which causal training never
// shows a model).
#include "EngineTable.h"
#include "support/TestMain.h"

#include "core/Engine.h"
#include "core/ParamText.h"
#include "core/Quantity.h"
#include "core/positions/BatchIds.h"
#include "core/positions/BatchTables.h"
#include "core/positions/DocumentDistance.h"

#include <QRandomGenerator>
#include <QTest>

#include <cmath>

namespace tst_documentdistance {
using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

// A packed row; `bothWays`: under T5's encoder, whose queries see the keys after them too.
Params packed(const QString &documents, std::int64_t maxLen, IdsChoice choice, bool bothWays = false)
{
    Params p;
    p.dropout = 0.0;
    if (bothWays)
        ParamText::set(p, u"encoding"_s, u"t5"_s);
    ParamText::set(p, u"max-len"_s, QString::number(maxLen));
    ParamText::set(p, u"packed"_s, documents);
    p.batch.ids = choice;
    return p;
}

// The row's documents and ids written out: document[c] (-1 padding) and the choice's id.
struct Written
{
    std::vector<std::int64_t> document, id;
};

Written written(const std::vector<std::int64_t> &lengths, std::int64_t maxLen, IdsChoice choice)
{
    Written w;
    std::int64_t at = 0;
    for (std::size_t d = 0; d < lengths.size(); ++d) {
        for (std::int64_t i = 0; i < lengths[d]; ++i, ++at) {
            w.document.push_back(std::int64_t(d));
            // The collator's restart, or the row's running count when positions run on.
            w.id.push_back(choice == IdsChoice::PositionsNotRestarted || choice == IdsChoice::ArangeWithPadding ? at
                                                                                                                : i);
        }
    }
    for (; at < maxLen; ++at) {
        w.document.push_back(-1);
        w.id.push_back(1);
    }
    return w;
}

bool seen(const Written &w, IdsChoice choice, std::int64_t q, std::int64_t k, bool bothWays)
{
    const bool block = choice != IdsChoice::PositionsNotRestarted && choice != IdsChoice::RestartedWithoutBlockMask;
    return (k <= q || bothWays) && w.document[std::size_t(q)] >= 0 && w.document[std::size_t(k)] >= 0
        && (!block || w.document[std::size_t(q)] == w.document[std::size_t(k)]);
}

DocumentDistance::Counts counted(const Written &w, IdsChoice choice, std::int64_t q0, std::int64_t q1, std::int64_t k0,
                                 std::int64_t k1, bool bothWays)
{
    DocumentDistance::Counts counts;
    for (std::int64_t q = q0; q < q1; ++q) {
        for (std::int64_t k = k0; k < k1; ++k) {
            if (!seen(w, choice, q, k, bothWays))
                continue;
            DocumentDistance::Counts one;
            one.attended = 1;
            const std::int64_t d = w.id[std::size_t(q)] - w.id[std::size_t(k)];
            one.sum = double(d);
            one.least = one.most = d;
            one.negative = d < 0;
            one.cross = w.document[std::size_t(q)] != w.document[std::size_t(k)];
            one.crossNegative = one.cross && d < 0;
            counts.add(one);
        }
    }
    return counts;
}

void compare(const DocumentDistance::Counts &a, const DocumentDistance::Counts &b)
{
    QCOMPARE(a.attended, b.attended);
    QCOMPARE(a.cross, b.cross);
    QCOMPARE(a.crossNegative, b.crossNegative);
    QCOMPARE(a.negative, b.negative);
    QCOMPARE(a.sum, b.sum);
    if (a.attended > 0) {
        QCOMPARE(a.least, b.least);
        QCOMPARE(a.most, b.most);
    }
}

} // namespace

class TestDocumentDistance : public QObject
{
    Q_OBJECT

private slots:
    void rows_data()
    {
        QTest::addColumn<int>("choice");
        QTest::addColumn<bool>("bothWays");
        for (const bool both : {false, true}) {
            const char *way = both ? " both ways" : "";
            QTest::addRow("reference%s", way) << int(IdsChoice::Reference) << both;
            QTest::addRow("positions-not-restarted%s", way) << int(IdsChoice::PositionsNotRestarted) << both;
            QTest::addRow("restarted-without-block-mask%s", way) << int(IdsChoice::RestartedWithoutBlockMask) << both;
        }
    }
    // Every rectangle of a row, and the row whole, as the pairs counted one by one.
    void rows()
    {
        QFETCH(int, choice);
        QFETCH(bool, bothWays);
        const auto ch = IdsChoice(choice);
        const std::vector<std::int64_t> lengths = {3, 4, 2, 7, 1};
        const Params p = packed(u"3,4,2,7,1"_s, 20, ch, bothWays);
        QVERIFY(p.validate().isEmpty());
        const BatchLayout layout(p);
        QCOMPARE(layout.bothWays(), bothWays);
        const Written w = written(lengths, 20, ch);
        compare(DocumentDistance::row(layout, ch, 0), counted(w, ch, 0, 20, 0, 20, bothWays));
        QRandomGenerator random(7);
        for (int i = 0; i < 300; ++i) {
            std::int64_t q0 = random.bounded(20), q1 = random.bounded(21), k0 = random.bounded(20),
                         k1 = random.bounded(21);
            if (q0 > q1)
                std::swap(q0, q1);
            if (k0 > k1)
                std::swap(k0, k1);
            compare(DocumentDistance::rectangle(layout, ch, 0, q0, q1, k0, k1),
                    counted(w, ch, q0, q1, k0, k1, bothWays));
        }
        // The table: the distance where attended, NaN where hidden. T5's score reads no ids
        // (T5Attention.compute_bias from arange(query_length) and arange(key_length)): its distances
        // are the columns' q − k.
        const Engine engine(p);
        const RowMatrixXf m = testing::computeTable(engine, Quantity::DocumentDistance, {0, 20, 0, 20});
        for (std::int64_t q = 0; q < 20; ++q) {
            for (std::int64_t k = 0; k < 20; ++k) {
                if (seen(w, ch, q, k, bothWays))
                    QCOMPARE(m(q, k), float(bothWays ? q - k : w.id[std::size_t(q)] - w.id[std::size_t(k)]));
                else
                    QVERIFY(std::isnan(m(q, k)));
            }
        }
    }

    // The reference keeps documents apart; running positions give document B document A as its
    // past, at positive distances; restarted ones under a causal mask give it negative distances.
    void whatEachChoiceShows()
    {
        const auto counts = [](IdsChoice ch) {
            const Params p = packed(u"3,4,2"_s, 9, ch);
            return DocumentDistance::row(BatchLayout(p), ch, 0);
        };
        QCOMPARE(counts(IdsChoice::Reference).cross, 0);
        QCOMPARE(counts(IdsChoice::PositionsNotRestarted).cross, 26);
        QCOMPARE(counts(IdsChoice::PositionsNotRestarted).crossNegative, 0);
        // B→A: 3 of 12 negative, C→A: 3 of 6, C→B: 5 of 8 (the ids 0..3 against 0..2 and 0..1).
        QCOMPARE(counts(IdsChoice::RestartedWithoutBlockMask).cross, 26);
        QCOMPARE(counts(IdsChoice::RestartedWithoutBlockMask).crossNegative, 11);
        // T5's encoder attends both ways: T² − Σ nᵢ² = 81 − (9 + 16 + 4) = 52 cross pairs, each
        // causal pair's mirror too, and a document's own pairs still 29 under the block mask.
        const auto both = [](IdsChoice ch) {
            const Params p = packed(u"3,4,2"_s, 9, ch, true);
            return DocumentDistance::row(BatchLayout(p), ch, 0);
        };
        QCOMPARE(both(IdsChoice::Reference).cross, 0);
        QCOMPARE(both(IdsChoice::Reference).attended, 9 + 16 + 4);
        QCOMPARE(both(IdsChoice::PositionsNotRestarted).cross, 81 - (9 + 16 + 4));
        QCOMPARE(both(IdsChoice::RestartedWithoutBlockMask).cross, 81 - (9 + 16 + 4));
    }

    // A row of 32768 positions in a handful of documents, counted in closed form without forming
    // its 2^30 pairs: the causal pairs of each document pair, one by one here in O(L).
    void longRow()
    {
        const Params p = packed(u"10000,12000,768,10000"_s, 32768, IdsChoice::RestartedWithoutBlockMask);
        const BatchLayout layout(p);
        const auto counts = DocumentDistance::row(layout, IdsChoice::RestartedWithoutBlockMask, 0);
        const std::vector<std::int64_t> starts = {0, 10000, 22000, 22768, 32768};
        std::int64_t cross = 0, negative = 0;
        for (std::size_t dq = 1; dq < 4; ++dq) {
            for (std::size_t dk = 0; dk < dq; ++dk) {
                const std::int64_t lk = starts[dk + 1] - starts[dk];
                for (std::int64_t iq = 0; iq < starts[dq + 1] - starts[dq]; ++iq) {
                    cross += lk;
                    negative += std::max<std::int64_t>(0, lk - 1 - iq); // keys with ids above iq
                }
            }
        }
        QCOMPARE(counts.cross, cross);
        QCOMPARE(counts.crossNegative, negative);
    }

    // M-RoPE over a pack of text: each token's t, h and w are the collator's one id (Qwen2VLTextModel.forward
    // expands 2-D position_ids to the three axes), so its distances are the written ones; an image
    // in the prompt has three ids that differ, and the table says so instead of drawing one axis.
    void mropeTextPack_data()
    {
        QTest::addColumn<int>("choice");
        QTest::newRow("reference") << int(IdsChoice::Reference);
        QTest::newRow("positions-not-restarted") << int(IdsChoice::PositionsNotRestarted);
        QTest::newRow("restarted-without-block-mask") << int(IdsChoice::RestartedWithoutBlockMask);
    }
    void mropeTextPack()
    {
        QFETCH(int, choice);
        const auto ch = IdsChoice(choice);
        Params p = packed(u"3,4,2"_s, 9, ch);
        ParamText::set(p, u"encoding"_s, u"mrope"_s);
        QVERIFY(!ParamText::set(p, u"prompt"_s, u"text:9"_s));
        QVERIFY(p.validate().isEmpty());
        const Engine engine(p);
        QVERIFY(!engine.source<BatchIds>().problem());
        QVERIFY(engine.source<BatchIds>().axesAgree());
        const Written w = written({3, 4, 2}, 9, ch);
        const RowMatrixXf m = testing::computeTable(engine, Quantity::DocumentDistance, {0, 9, 0, 9});
        for (std::int64_t q = 0; q < 9; ++q) {
            for (std::int64_t k = 0; k < 9; ++k) {
                if (seen(w, ch, q, k, false))
                    QCOMPARE(m(q, k), float(w.id[std::size_t(q)] - w.id[std::size_t(k)]));
                else
                    QVERIFY(std::isnan(m(q, k)));
            }
        }
        // A decode step's ids follow rope_deltas, which the padding can shift: no distances, and the
        // reason given is the cache's.
        Params cached = p;
        QVERIFY(!ParamText::set(cached, u"packed"_s, u"none"_s));
        QVERIFY(!ParamText::set(cached, u"batch"_s, u"left:5,1,3"_s));
        QVERIFY(!ParamText::set(cached, u"cache"_s, u"6"_s));
        const auto withCache = Quantities::spec(Quantity::DocumentDistance).missing(cached);
        QVERIFY(withCache && withCache->contains(u"without a cache"_s));
        Params image = p;
        QVERIFY(!ParamText::set(image, u"prompt"_s, u"text:2,image:1x4x4,text:3"_s));
        QVERIFY(Quantities::spec(Quantity::DocumentDistance).missing(image).has_value());
        QVERIFY(Engine(image).source<BatchIds>().problem().has_value());
    }

    // Document ids from a file: a change of value starts a document; a negative value is padding.
    void documentIdsFile()
    {
        RowMatrixXf ids(1, 8);
        ids << 0, 0, 7, 7, 7, 2, -1, -1;
        Params p;
        p.maxLen = 8;
        p.batch.documents = std::make_shared<const BatchTable>(BatchTables::fromMatrix(ids, false, u"docs"_s));
        QVERIFY(p.validate().isEmpty());
        const Engine engine(p);
        const BatchIds &b = engine.source<BatchIds>();
        const std::int64_t expected[8] = {0, 1, 0, 1, 2, 0, 1, 1};
        for (std::int64_t c = 0; c < 8; ++c)
            QCOMPARE(b.id(IdsChoice::Reference, 0, c), expected[c]);
    }
};

POSENC_TEST_GUILESS_MAIN(TestDocumentDistance)
} // namespace tst_documentdistance
#include "tst_documentdistance.moc"
