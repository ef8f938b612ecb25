// Which parameters each quantity reads: every exclusion of ParamInputs::unreadKeys is checked
// against the engine's tables in several settings, so a figure that skips a recompute for an
// unread parameter can never be stale.
#include "core/Engine.h"
#include "core/ParamInputs.h"
#include "core/ParamTable.h"
#include "core/ParamText.h"

#include <QTest>

using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

std::shared_ptr<const EmbeddingMatrix> matrix(std::int64_t rows, std::int64_t cols, float offset)
{
    auto m = std::make_shared<EmbeddingMatrix>();
    m->values = RowMatrixXf::NullaryExpr(rows, cols, [offset](Eigen::Index r, Eigen::Index c) {
        return offset + 0.01f * static_cast<float>(r) - 0.02f * static_cast<float>(c);
    });
    m->source = u"test"_s;
    return m;
}

Params with(Params p, const QString &key, const QString &text)
{
    if (const auto error = ParamText::set(p, key, text))
        qFatal("%s", qPrintable(error->sentence()));
    return p;
}

// The settings each change is tried in: the defaults at a small size, and the settings where a
// parameter starts to matter (concat for pe-dims, masked-fill for seq-len, protect-special for
// special, a loaded matrix for the random init).
QList<std::pair<QString, Params>> settings()
{
    Params base;
    base.dModel = 12;
    base.maxLen = 16;
    base.dropout = 0.4;
    QList<std::pair<QString, Params>> list = {{u"defaults"_s, base}};
    list.append({u"concat"_s, with(with(base, u"compose"_s, u"concat"_s), u"pe-dims"_s, u"4"_s)});
    list.append({u"masked-fill"_s, with(with(base, u"dropout-mode"_s, u"masked-fill"_s), u"seq-len"_s, u"9"_s)});
    list.append({u"protect-special"_s, with(base, u"dropout-mode"_s, u"protect-special"_s)});
    list.append({u"embedding mode"_s, with(base, u"dropout-mode"_s, u"embedding"_s)});
    list.append({u"evaluation"_s, with(base, u"eval"_s, u"true"_s)});
    list.append({u"float32 split"_s, with(with(base, u"angles"_s, u"float32"_s), u"layout"_s, u"split"_s)});
    list.append(
        {u"diffusers' timestep embedding"_s,
         with(with(with(with(base, u"layout"_s, u"split"_s), u"flip-sin-to-cos"_s, u"true"_s), u"freq-shift"_s, u"1"_s),
              u"timestep-scale"_s, u"1000"_s)});
    Params loaded = base;
    loaded.embeddings = matrix(base.maxLen, base.dModel, 0.5f);
    list.append({u"loaded matrix"_s, loaded});
    // RoPE, a head of 8 of the 12 columns, and the types whose own keys start to matter.
    const Params rope = with(with(base, u"encoding"_s, u"rope"_s), u"head-dim"_s, u"8"_s);
    list.append({u"rope"_s, rope});
    list.append(
        {u"rope yarn"_s,
         with(with(with(rope, u"rope-type"_s, u"yarn"_s), u"rope-factor"_s, u"4"_s), u"original-max-len"_s, u"8"_s)});
    list.append(
        {u"rope llama3"_s,
         with(with(with(rope, u"rope-type"_s, u"llama3"_s), u"rope-factor"_s, u"4"_s), u"original-max-len"_s, u"8"_s)});
    list.append({u"rope longrope"_s,
                 with(with(with(with(rope, u"rope-type"_s, u"longrope"_s), u"original-max-len"_s, u"8"_s),
                           u"short-factor"_s, u"1,1.5,2,3"_s),
                      u"long-factor"_s, u"2,3,4,5"_s)});
    Params ropeLoaded = rope;
    ropeLoaded.embeddings = matrix(base.maxLen, base.dModel, 0.5f);
    list.append({u"rope, loaded matrix"_s, ropeLoaded});
    // ALiBi, T5 and DeBERTa with spans that 16 positions reach past their exact buckets; Sandwich.
    const Params alibi = with(with(with(base, u"encoding"_s, u"alibi"_s), u"heads"_s, u"12"_s), u"head"_s, u"3"_s);
    list.append({u"alibi"_s, alibi});
    list.append({u"alibi symmetric"_s, with(alibi, u"alibi"_s, u"symmetric"_s)});
    const Params t5
        = with(with(with(base, u"encoding"_s, u"t5"_s), u"t5-buckets"_s, u"8"_s), u"t5-max-distance"_s, u"12"_s);
    list.append({u"t5"_s, t5});
    list.append({u"t5 causal"_s, with(t5, u"t5-causal"_s, u"true"_s)});
    // M-RoPE, 2-D RoPE and the 2-D sin-cos table, small.
    const Params mrope
        = with(with(with(with(base, u"encoding"_s, u"mrope"_s), u"head-dim"_s, u"8"_s), u"mrope-section"_s, u"1,1,2"_s),
               u"prompt"_s, u"text:2,image:1x4x2,text:1,video:3x2x4,text:2"_s);
    list.append({u"mrope"_s, mrope});
    list.append({u"mrope qwen2.5-vl"_s, with(mrope, u"vision-positions"_s, u"qwen2.5-vl"_s)});
    list.append({u"mrope qwen3-vl"_s, with(mrope, u"vision-positions"_s, u"qwen3-vl"_s)});
    const Params rope2d
        = with(with(with(with(base, u"encoding"_s, u"rope-2d"_s), u"head-dim"_s, u"8"_s), u"grid"_s, u"4,6"_s),
               u"patch"_s, u"1,1"_s);
    list.append({u"rope-2d"_s, rope2d});
    list.append({u"rope-2d flux"_s, with(with(rope2d, u"axes-dim"_s, u"2,2,4"_s), u"rope-2d-style"_s, u"flux"_s)});
    list.append({u"sincos-2d"_s, with(with(base, u"encoding"_s, u"sincos-2d"_s), u"grid"_s, u"4,4"_s)});
    list.append({u"deberta"_s,
                 with(with(with(base, u"encoding"_s, u"deberta"_s), u"deberta-buckets"_s, u"8"_s),
                      u"deberta-max-position"_s, u"12"_s)});
    // Sandwich with a small head dim, so that 16 positions see its sum turn, odd and even.
    const Params sandwich = with(with(with(base, u"encoding"_s, u"sandwich"_s), u"sandwich-heads"_s, u"12"_s),
                                 u"sandwich-head"_s, u"3"_s);
    list.append({u"sandwich"_s, with(sandwich, u"sandwich-head-dim"_s, u"6"_s)});
    list.append({u"sandwich bidirectional, odd d"_s,
                 with(with(sandwich, u"sandwich-mask"_s, u"bidirectional"_s), u"sandwich-head-dim"_s, u"5"_s)});
    return list;
}

// A value of each parameter other than the one every setting starts from.
QList<std::pair<QString, QString>> changes()
{
    return {
        {u"base"_s, u"500"_s},
        {u"layout"_s, u"split"_s},
        {u"angles"_s, u"float32"_s},
        {u"flip-sin-to-cos"_s, u"true"_s},
        {u"freq-shift"_s, u"1"_s},
        {u"timestep-scale"_s, u"1000"_s},
        {u"scale"_s, u"2.5"_s},
        {u"init"_s, u"0.3"_s},
        {u"pe-dims"_s, u"6"_s},
        {u"dropout"_s, u"0.7"_s},
        {u"dropout-mode"_s, u"masked-fill"_s},
        {u"dropout-mode"_s, u"protect-special"_s},
        {u"dropout-mode"_s, u"embedding"_s},
        {u"special"_s, u"1,2"_s},
        {u"seq-len"_s, u"5"_s},
        {u"seed"_s, u"7"_s},
        {u"eval"_s, u"true"_s},
        {u"memory-budget"_s, u"1"_s},
        {u"head-dim"_s, u"4"_s},
        {u"rope-theta"_s, u"500"_s},
        {u"partial-rotary-factor"_s, u"0.5"_s},
        {u"rope-layout"_s, u"interleaved"_s},
        {u"rope-type"_s, u"dynamic"_s},
        {u"rope-factor"_s, u"2"_s},
        {u"original-max-len"_s, u"12"_s},
        {u"low-freq-factor"_s, u"2"_s},
        {u"high-freq-factor"_s, u"8"_s},
        {u"beta-fast"_s, u"16"_s},
        {u"beta-slow"_s, u"2"_s},
        {u"yarn-truncate"_s, u"false"_s},
        {u"mscale"_s, u"0.8"_s},
        {u"mscale-all-dim"_s, u"1"_s},
        {u"attention-factor"_s, u"1.3"_s},
        {u"short-factor"_s, u"1,1,1,1"_s},
        {u"long-factor"_s, u"1,2,2,2"_s},
        {u"heads"_s, u"6"_s},
        {u"head"_s, u"2"_s},
        {u"alibi"_s, u"symmetric"_s},
        {u"t5-buckets"_s, u"12"_s},
        {u"t5-max-distance"_s, u"20"_s},
        {u"t5-causal"_s, u"true"_s},
        {u"deberta-buckets"_s, u"6"_s},
        {u"deberta-max-position"_s, u"20"_s},
        {u"sandwich-heads"_s, u"6"_s},
        {u"sandwich-head"_s, u"2"_s},
        {u"sandwich-head-dim"_s, u"8"_s},
        {u"sandwich-mask"_s, u"bidirectional"_s},
        {u"mrope-section"_s, u"2,1,1"_s},
        {u"mrope-interleaved"_s, u"true"_s},
        {u"vision-positions"_s, u"qwen2.5-vl"_s},
        {u"mrope-era"_s, u"v5"_s},
        {u"spatial-merge-size"_s, u"1"_s},
        {u"prompt"_s, u"text:3,image:1x2x2"_s},
        {u"tokens-per-second"_s, u"4"_s},
        {u"second-per-grid"_s, u"0.5"_s},
        {u"timestamp-tokens"_s, u"3"_s},
        {u"rope-2d-style"_s, u"axial"_s},
        {u"axes-dim"_s, u"2,4,2"_s},
        {u"patch"_s, u"1,2"_s},
        {u"grid"_s, u"6,4"_s},
        {u"cls-token"_s, u"true"_s},
        {u"base-size"_s, u"8"_s},
        {u"interpolation-scale"_s, u"2"_s},
    };
}

} // namespace

class TestParamInputs : public QObject
{
    Q_OBJECT

private slots:
    void unreadParametersLeaveTheTableAlone_data();
    void unreadParametersLeaveTheTableAlone();
    void changedKeysNameEveryChange();
    void differIsTrueForReadKeysOnly();
};

void TestParamInputs::unreadParametersLeaveTheTableAlone_data()
{
    QTest::addColumn<int>("quantity");
    // Every row of the quantity table: a new quantity is checked without being named here.
    for (const QuantitySpec &row : Quantities::rows())
        QTest::newRow(qPrintable(row.name)) << static_cast<int>(row.quantity);
}

void TestParamInputs::unreadParametersLeaveTheTableAlone()
{
    QFETCH(int, quantity);
    const auto q = static_cast<Quantity>(quantity);
    const QStringList unread = ParamInputs::unreadKeys(q);
    int compared = 0;
    for (const auto &[name, setting] : settings()) {
        if (Quantities::spec(q).missing(setting))
            continue; // encoding rope has no PE, nor its similarity
        QList<std::pair<QString, Params>> variants;
        for (const auto &[key, text] : changes())
            variants.append({key + u"="_s + text, with(setting, key, text)});
        Params other = setting;
        other.embeddings = matrix(setting.maxLen, setting.embeddingColumns(), -0.25f);
        variants.append({u"another matrix"_s, other});
        for (const auto &[change, changed] : variants) {
            const QStringList keys = ParamTable::changedKeys(setting, changed);
            const bool allUnread
                = std::all_of(keys.begin(), keys.end(), [&](const QString &k) { return unread.contains(k); });
            // A table these parameters lack (rope's under another encoding) is never shown.
            const QuantitySpec &spec = Quantities::spec(q);
            if (keys.isEmpty() || !allUnread || !changed.isValid() || spec.missing(setting) || spec.missing(changed))
                continue;
            const Engine before(setting);
            const Engine after(changed);
            const Shape shape = before.shape(q);
            QVERIFY2(shape == after.shape(q), qPrintable(name + u": "_s + change));
            const auto a = before.table(q, {0, shape.rows, 0, shape.cols});
            const auto b = after.table(q, {0, shape.rows, 0, shape.cols});
            QVERIFY(a && b);
            // Bit for bit: a figure that skips its recompute shows exactly these cells.
            QVERIFY2(std::memcmp(a->data(), b->data(), sizeof(float) * std::size_t(a->size())) == 0,
                     qPrintable(u"%1 changed the %2 table (%3), but is listed as unread"_s.arg(
                         change, Quantities::name(q), name)));
            ++compared;
        }
    }
    QVERIFY(compared > 0 || unread.isEmpty());
}

void TestParamInputs::changedKeysNameEveryChange()
{
    Params base;
    for (const auto &[key, text] : changes()) {
        const Params changed = with(base, key, text);
        QCOMPARE(ParamTable::changedKeys(base, changed), QStringList {key});
    }
    Params loaded = base;
    loaded.embeddings = matrix(base.maxLen, base.dModel, 0.0f);
    QCOMPARE(ParamTable::changedKeys(base, loaded), QStringList {QString::fromUtf16(ParamInputs::kEmbeddingsKey)});
}

void TestParamInputs::differIsTrueForReadKeysOnly()
{
    Params base;
    const Params seeded = with(base, u"seed"_s, u"9"_s);
    QVERIFY(!ParamInputs::differ(base, seeded, {Quantity::Pe}));
    QVERIFY(ParamInputs::differ(base, seeded, {Quantity::Pe, Quantity::Embedding}));
    const Params wider = with(base, u"d-model"_s, u"64"_s);
    for (const Quantity q : {Quantity::Pe, Quantity::Embedding, Quantity::Mask, Quantity::Output})
        QVERIFY(ParamInputs::differ(base, wider, {q}));
    QVERIFY(!ParamInputs::differ(base, base, {Quantity::Output}));
}

QTEST_GUILESS_MAIN(TestParamInputs)
#include "tst_paraminputs.moc"
