// Which parameters each quantity reads: every exclusion of ParamInputs::unreadKeys is checked
// against the engine's tables in several settings, so a figure that skips a recompute for an
// unread parameter can never be stale.
#include "core/Engine.h"
#include "core/ParamInputs.h"
#include "core/ParamTable.h"
#include "core/ParamText.h"
#include "support/TestMain.h"

#include "support/TestFamily.h"

#include <QTest>

namespace tst_paraminputs {
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
    Params loaded = base;
    loaded.embeddings = matrix(base.maxLen, base.dModel, 0.5f);
    list.append({u"loaded matrix"_s, loaded});
    // Each family's settings, where its rows start to matter (tests/families/<family>/), the first
    // with a loaded matrix too.
    for (const TestFamily &family : TestFamilies::all()) {
        for (const auto &[name, setting] : family.settings)
            list.append({name, TestFamilies::applied(base, setting)});
        if (!family.settings.isEmpty()) {
            Params withMatrix = TestFamilies::applied(base, family.settings.constFirst().second);
            withMatrix.embeddings = matrix(base.maxLen, base.dModel, 0.5f);
            list.append({family.settings.constFirst().first + u", loaded matrix"_s, withMatrix});
        }
    }
    return list;
}

// A value of each parameter other than the one every setting starts from: the shared rows' here,
// each family's from its record.
QList<std::pair<QString, QString>> changes()
{
    QList<std::pair<QString, QString>> list = {
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
    };
    for (const TestFamily &family : TestFamilies::all())
        list += family.changes;
    return list;
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

POSENC_TEST_GUILESS_MAIN(TestParamInputs)
} // namespace tst_paraminputs
#include "tst_paraminputs.moc"
