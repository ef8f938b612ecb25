// The table of rope_types (RopeTypes) against HF transformers' own source: each type's required
// and optional keys and whether standardize_rope_params gives it original_max_position_embeddings,
// as tests/data/make_rope_types_fixture.py read them from modeling_rope_utils.py
// (tests/data/rope/hf_rope_type_keys.json); and the parameter rows' idle reasons and needs, which
// come from the table, type by type.
#include "core/ParamTable.h"
#include "core/rope/RopeTypes.h"
#include "support/TestMain.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>

namespace tst_ropetypes {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

QJsonObject hfTypes()
{
    QFile file(QFINDTESTDATA("../../data/rope/hf_rope_type_keys.json"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object().value(u"types"_s).toObject();
}

QStringList sorted(QStringList list)
{
    list.sort();
    return list;
}

QStringList strings(const QJsonArray &array)
{
    QStringList list;
    for (const QJsonValue &v : array)
        list.append(v.toString());
    return list;
}

// The parameters every type reads: the head and the keys outside any scaling.
const QStringList kShared
    = {u"head-dim"_s, u"rope-theta"_s, u"partial-rotary-factor"_s, u"rope-layout"_s, u"rope-type"_s};

Params under(RopeType type)
{
    Params p;
    p.encoding = Encoding::Rope;
    p.rope.type = type;
    return p;
}

} // namespace

class TestRopeTypes : public QObject
{
    Q_OBJECT

private slots:
    void tableIsInTheOrderOfRopeType();
    void wordsReadBack();
    void keysAreHfs_data();
    void keysAreHfs();
    void everyKeyHfTakesIsRead_data();
    void everyKeyHfTakesIsRead();
    void rowsAreIdleWhereTheTypeDoesNotRead_data();
    void rowsAreIdleWhereTheTypeDoesNotRead();
    void rowsRefuseToRunWithoutWhatTheTypeNeeds_data();
    void rowsRefuseToRunWithoutWhatTheTypeNeeds();
};

void TestRopeTypes::tableIsInTheOrderOfRopeType()
{
    const QList<RopeTypes::TypeSpec> &all = RopeTypes::all();
    QCOMPARE(all.size(), qsizetype(RopeType::Proportional) + 1);
    for (qsizetype i = 0; i < all.size(); ++i) {
        QCOMPARE(int(all[i].type), int(i));
        QCOMPARE(RopeTypes::words().value(i), all[i].word);
    }
    // rope-type's choices are the table's words.
    const ParamSpec *row = ParamTable::find(u"rope-type"_s);
    QVERIFY(row);
    QCOMPARE(row->choices, RopeTypes::words());
}

void TestRopeTypes::wordsReadBack()
{
    for (const RopeTypes::TypeSpec &t : RopeTypes::all()) {
        QCOMPARE(RopeTypes::word(t.type), t.word);
        QCOMPARE(RopeTypes::fromWord(t.word), std::optional<RopeType>(t.type));
    }
    QCOMPARE(RopeTypes::fromWord(u"su"_s), std::nullopt); // Phi-3's old word, which HF's Phi3Config converts
    QCOMPARE(RopeTypes::fromWord(u"Yarn"_s), std::nullopt);
}

void TestRopeTypes::keysAreHfs_data()
{
    QTest::addColumn<int>("type");
    for (const RopeTypes::TypeSpec &t : RopeTypes::all())
        QTest::newRow(qPrintable(t.word)) << int(t.type);
}

void TestRopeTypes::keysAreHfs()
{
    QFETCH(int, type);
    const RopeTypes::TypeSpec &spec = RopeTypes::of(RopeType(type));
    const QJsonObject hf = hfTypes().value(spec.word).toObject();
    QVERIFY2(!hf.isEmpty(), "HF validates every type posenc computes");
    QCOMPARE(sorted(spec.required), strings(hf.value(u"required"_s).toArray()));
    QCOMPARE(sorted(spec.optional), strings(hf.value(u"optional"_s).toArray()));
    QCOMPARE(spec.takesOriginal, hf.value(u"takes_original"_s).toBool());
}

void TestRopeTypes::everyKeyHfTakesIsRead_data()
{
    keysAreHfs_data();
}

// Each key HF's validator takes for a type names a parameter posenc reads under it, and each
// scaling parameter posenc reads is one of those keys, but for two of HF's own readings outside
// the validator's lists: dynamic's original length is config.max_position_embeddings
// (_compute_dynamic_ntk_parameters), and _compute_proportional_rope_parameters reads "factor",
// which _validate_proportional_rope_parameters does not list.
void TestRopeTypes::everyKeyHfTakesIsRead()
{
    QFETCH(int, type);
    const RopeTypes::TypeSpec &spec = RopeTypes::of(RopeType(type));
    QStringList hfParams;
    for (const QString &key : spec.required + spec.optional + QStringList {u"partial_rotary_factor"_s}) {
        const auto mapped = std::find_if(RopeTypes::keys().begin(), RopeTypes::keys().end(),
                                         [&](const RopeTypes::Key &k) { return k.config == key; });
        QVERIFY2(mapped != RopeTypes::keys().end(), qPrintable(key));
        QCOMPARE(RopeTypes::configKey(mapped->param), key);
        QVERIFY2(RopeTypes::reads(spec.type, mapped->param), qPrintable(mapped->param));
        hfParams.append(mapped->param);
    }
    QStringList beyond;
    for (const QString &param : spec.reads) {
        if (!hfParams.contains(param))
            beyond.append(param);
    }
    const QStringList expected = spec.type == RopeType::Dynamic ? QStringList {u"original-max-len"_s}
        : spec.type == RopeType::Proportional                   ? QStringList {u"rope-factor"_s}
                                                                : QStringList {};
    QCOMPARE(beyond, expected);
    for (const QString &param : spec.needs)
        QVERIFY2(spec.reads.contains(param), qPrintable(param));
}

void TestRopeTypes::rowsAreIdleWhereTheTypeDoesNotRead_data()
{
    keysAreHfs_data();
}

void TestRopeTypes::rowsAreIdleWhereTheTypeDoesNotRead()
{
    QFETCH(int, type);
    const Params p = under(RopeType(type));
    QStringList scaling;
    for (const RopeTypes::Key &k : RopeTypes::keys())
        scaling.append(k.param);
    for (const QString &key : scaling + kShared) {
        const ParamSpec *row = ParamTable::find(key);
        QVERIFY2(row, qPrintable(key));
        const std::optional<IdleReason> idle = row->idle(p);
        const bool otherType = idle && idle->code == IdleReason::Code::OtherRopeType;
        QVERIFY2(otherType == !RopeTypes::reads(RopeType(type), key),
                 qPrintable(
                     u"%1 under %2: %3"_s.arg(key, RopeTypes::word(RopeType(type)), idle ? idle->why : u"not idle"_s)));
        if (kShared.contains(key))
            QVERIFY(RopeTypes::reads(RopeType(type), key));
    }
}

void TestRopeTypes::rowsRefuseToRunWithoutWhatTheTypeNeeds_data()
{
    keysAreHfs_data();
}

// The defaults leave factor, original_max_len and longrope's lists unset: each type is refused
// naming what it needs, and only that. longrope needs the factor too while no attention factor
// is given.
void TestRopeTypes::rowsRefuseToRunWithoutWhatTheTypeNeeds()
{
    QFETCH(int, type);
    const Params p = under(RopeType(type));
    QStringList refused;
    for (const ParamError &error : p.validate()) {
        if (error.problem.startsWith(u"is needed by rope-type "_s))
            refused.append(error.key);
    }
    QStringList expected = RopeTypes::of(RopeType(type)).needs;
    if (RopeType(type) == RopeType::LongRope)
        expected.append(u"rope-factor"_s);
    QCOMPARE(sorted(refused), sorted(expected));
}

POSENC_TEST_GUILESS_MAIN(TestRopeTypes)
} // namespace tst_ropetypes
#include "tst_ropetypes.moc"
