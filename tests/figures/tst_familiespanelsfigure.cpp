// The families figure takes a panel again only when something it reads changed (FamiliesModel::
// compute): a change of one family's settings computes that family's panel (and those of the
// families that share the setting) anew and no other, each panel then the same, bit for bit, as one
// computed on its own at the new settings; and no panel's data moves with a setting its inputs do
// not read, in every family's test settings, which is what makes a kept panel safe to draw.
#include "core/ParamInputs.h"
#include "core/ParamTable.h"
#include "core/ParamText.h"
#include "render/data/FamiliesModel.h"
#include "render/data/FamilyPanel.h"
#include "support/TestMain.h"

#include "support/TestFamily.h"

#include <QTest>

#include <cstring>

namespace tst_familiespanelsfigure {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

bool sameBits(const QList<double> &a, const QList<double> &b)
{
    return a.size() == b.size()
        && std::memcmp(a.constData(), b.constData(), sizeof(double) * std::size_t(a.size())) == 0;
}

bool sameCurve(const FamilyCurve &a, const FamilyCurve &b)
{
    return sameBits(a.offset, b.offset) && sameBits(a.lo, b.lo) && sameBits(a.hi, b.hi);
}

// Everything a panel draws and says, compared bit for bit.
QString difference(const FamilyPanelData &a, const FamilyPanelData &b)
{
    if (!sameCurve(a.curve, b.curve))
        return u"the curve"_s;
    if (a.lines.size() != b.lines.size())
        return u"the number of lines"_s;
    for (qsizetype i = 0; i < a.lines.size(); ++i) {
        const FamilyPanelLine &x = a.lines[i], &y = b.lines[i];
        if (!sameCurve(x.curve, y.curve) || x.shade != y.shade || x.emphasised != y.emphasised || x.name != y.name
            || x.terseName != y.terseName)
            return u"line %1"_s.arg(i);
    }
    if (a.problem != b.problem || a.note != b.note || a.maskName != b.maskName || a.terseMaskName != b.terseMaskName)
        return u"its words"_s;
    if (a.least != b.least || a.most != b.most || a.maskedAfterQuery != b.maskedAfterQuery || a.sampled != b.sampled)
        return u"its range or mask"_s;
    return {};
}

Params with(Params p, const QString &key, const QString &text)
{
    if (const auto error = ParamText::set(p, key, text))
        qFatal("%s", qPrintable(error->sentence()));
    return p;
}

} // namespace

class TestFamiliesPanelsFigure : public QObject
{
    Q_OBJECT

private slots:
    void aChangeComputesOnlyThePanelsThatReadIt();
    void noPanelMovesWithASettingItDoesNotRead();
};

// Past a preview's budget (the sinusoid's 512 sums over 4095 offsets, each pixel sampled), as the
// window's families view takes it while a control moves.
void TestFamiliesPanelsFigure::aChangeComputesOnlyThePanelsThatReadIt()
{
    Params p;
    p.dModel = 1024;
    p.maxLen = 2048;
    // A model that masks no key: each panel as its family computes it at the model's mask
    // (FamiliesModel::panelParams; a causal model's mask is laid on every panel after the panels
    // are kept, FamiliesModel::compute).
    p.batch.attention = Attention::BothWays;
    const std::int64_t q = FamiliesModel::defaultQuery(p);
    const double lower = -double(q) - 0.5, upper = double(p.maxLen - 1 - q) + 0.5;
    constexpr int kPixels = 300;
    constexpr std::int64_t kBudget = FamilyCurves::kPreviewEvaluations;
    QVERIFY(FamiliesModel::compute(p, q, lower, upper, kPixels, nullptr, kBudget));
    const QList<const FamilySpec *> panels = FamiliesModel::panelFamilies();
    // One family's setting at a time: ALiBi's heads, the sinusoid's base, RoPE's theta.
    for (const auto &[key, text] : QList<std::pair<QString, QString>> {
             {u"heads"_s, u"12"_s}, {u"base"_s, u"500"_s}, {u"rope-theta"_s, u"500000"_s}}) {
        const Params next = with(p, key, text);
        qsizetype reading = 0;
        for (const FamilySpec *family : panels)
            reading += ParamInputs::differ(p, next, FamilyPanels::of(family->encoding)->inputs) ? 1 : 0;
        QVERIFY2(reading > 0 && reading < panels.size(), qPrintable(key));
        const quint64 before = FamiliesModel::panelsComputed();
        const auto d = FamiliesModel::compute(next, q, lower, upper, kPixels, nullptr, kBudget);
        QVERIFY(d);
        QCOMPARE(FamiliesModel::panelsComputed() - before, quint64(reading));
        const OffsetPixels offsets = OffsetPixels::of(q, next.maxLen, lower, upper, kPixels);
        for (const FamilySpec *family : panels) {
            auto fresh = FamilyPanels::of(family->encoding)
                             ->compute(FamiliesModel::panelParams(next), q, offsets, kBudget, nullptr);
            QVERIFY(fresh && d->panel(family->encoding));
            fresh->family = family->encoding;
            const QString differs = difference(*d->panel(family->encoding), *fresh);
            QVERIFY2(differs.isEmpty(), qPrintable(u"%1 after %2: %3"_s.arg(family->heading, key, differs)));
        }
        p = next;
    }
    // The same settings again: nothing is computed.
    const quint64 before = FamiliesModel::panelsComputed();
    QVERIFY(FamiliesModel::compute(p, q, lower, upper, kPixels, nullptr, kBudget));
    QCOMPARE(FamiliesModel::panelsComputed(), before);
}

// Each family's test settings (at d_model 12, max_len 16) and each change of its records: where
// every key a change moves is outside what a panel's inputs read, the panel is the same bit for bit.
void TestFamiliesPanelsFigure::noPanelMovesWithASettingItDoesNotRead()
{
    Params base;
    base.dModel = 12;
    base.maxLen = 16;
    QList<std::pair<QString, Params>> settings = {{u"defaults"_s, base}};
    QList<std::pair<QString, QString>> changes;
    for (const TestFamily &family : TestFamilies::all()) {
        for (const auto &[name, setting] : family.settings)
            settings.append({name, TestFamilies::applied(base, setting)});
        changes += family.changes;
    }
    changes.append({u"d-model"_s, u"14"_s});
    int compared = 0;
    for (const auto &[name, setting] : settings) {
        const std::int64_t q = FamiliesModel::defaultQuery(setting);
        const OffsetPixels offsets
            = OffsetPixels::of(q, setting.maxLen, -double(q) - 0.5, double(setting.maxLen - 1 - q) + 0.5, 40);
        for (const FamilySpec *family : FamiliesModel::panelFamilies()) {
            const FamilyPanel &panel = *FamilyPanels::of(family->encoding);
            const auto before = panel.compute(setting, q, offsets, FamilyCurves::kMaxEvaluations, nullptr);
            QVERIFY(before);
            for (const auto &[key, text] : changes) {
                Params changed = setting;
                if (ParamText::set(changed, key, text) || !changed.isValid())
                    continue;
                if (ParamTable::changedKeys(setting, changed).isEmpty()
                    || ParamInputs::differ(setting, changed, panel.inputs))
                    continue;
                const auto after = panel.compute(changed, q, offsets, FamilyCurves::kMaxEvaluations, nullptr);
                QVERIFY(after);
                const QString differs = difference(*before, *after);
                QVERIFY2(differs.isEmpty(),
                         qPrintable(u"%1's panel in %2: %3=%4 changed %5, which its inputs do not read"_s.arg(
                             family->heading, name, key, text, differs)));
                ++compared;
            }
        }
    }
    QVERIFY(compared > 100);
}

POSENC_TEST_MAIN(TestFamiliesPanelsFigure)
} // namespace tst_familiespanelsfigure
#include "tst_familiespanelsfigure.moc"
