// The heatmap of its natural quantity reads the one table the parameters choose
// (HeatmapModel::readingAt): a window skips it for a change that leaves that table and its keys
// alone (FigureView::setParams), as the sinusoid's heatmap for a change of s. Every change of a
// shared row and of each family's rows, in each family's settings, that leaves the table and its
// keys as they were must leave the figure's data exactly as it was: cells, spread, marks, label
// and parameters text. A key forgotten would leave the view stale.

#include "render/FigureRegistry.h"
#include "render/data/HeatmapModel.h"
#include "support/TestMain.h"

#include "core/ParamTable.h"
#include "core/ParamText.h"

#include "../support/TestFamily.h"

#include <QTest>

#include <cstring>

namespace tst_heatmapreading {
using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

const FigureModel &heatmap()
{
    return FigureRegistry::find(u"heatmap"_s)->model();
}

// The data of the whole table over a panel of 48 x 40 pixels, in full detail.
std::shared_ptr<const HeatmapFigureData> computed(const Params &params)
{
    FigureRequest request;
    request.engine = std::make_shared<const Engine>(params);
    const Shape shape = Quantities::shape(HeatmapModel::natural(params), params);
    request.panels
        = {PanelExtent {QSize(48, 40), 1.0, {-0.5, double(shape.cols) - 0.5}, {-0.5, double(shape.rows) - 0.5}}};
    const FigureResult result = heatmap().compute(request, {});
    return std::dynamic_pointer_cast<const HeatmapFigureData>(result.data);
}

template<typename T> bool sameBits(const std::vector<T> &a, const std::vector<T> &b)
{
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// What differs between two data, or nothing.
QString difference(const HeatmapFigureData &a, const HeatmapFigureData &b)
{
    if (a.grid.rows != b.grid.rows || a.grid.cols != b.grid.cols || !(a.grid.block == b.grid.block))
        return u"the grid's size"_s;
    if (!sameBits(a.grid.values, b.grid.values) || !sameBits(a.grid.spread, b.grid.spread))
        return u"the cells"_s;
    if (!sameBits(a.grid.marks, b.grid.marks))
        return u"the marks"_s;
    if (a.grid.colourExtent != b.grid.colourExtent || a.grid.quantity != b.grid.quantity)
        return u"the colour range"_s;
    if (a.label != b.label || a.parameters != b.parameters)
        return u"the text: %1 / %2 against %3 / %4"_s.arg(a.label, a.parameters, b.label, b.parameters);
    return {};
}

} // namespace

class TestHeatmapReading : public QObject
{
    Q_OBJECT

private slots:
    void keysItDoesNotReadLeaveItsDataAlone();
    void aChosenQuantityReadsAsBefore();
};

void TestHeatmapReading::keysItDoesNotReadLeaveItsDataAlone()
{
    Params base;
    base.dModel = 12;
    base.maxLen = 16;
    base.dropout = 0.4;
    QList<std::pair<QString, Params>> settings = {{u"defaults"_s, base}};
    TestSetting changes = {{u"scale"_s, u"2.5"_s},
                           {u"scale"_s, u"sqrt"_s},
                           {u"init"_s, u"0.3"_s},
                           {u"dropout"_s, u"0.7"_s},
                           {u"dropout-mode"_s, u"masked-fill"_s},
                           {u"seed"_s, u"7"_s},
                           {u"eval"_s, u"true"_s},
                           {u"pe-dims"_s, u"6"_s},
                           {u"special"_s, u"1,2"_s},
                           {u"d-model"_s, u"16"_s},
                           {u"max-len"_s, u"20"_s}};
    for (const TestFamily &family : TestFamilies::all()) {
        changes += family.changes;
        for (const auto &[name, setting] : family.settings)
            settings.append({name, TestFamilies::applied(base, setting)});
    }
    int compared = 0, skippedScale = 0;
    for (const auto &[name, setting] : std::as_const(settings)) {
        const FigureModel::Reading was = heatmap().readingAt({}, setting);
        const auto before = computed(setting);
        QVERIFY2(before, qPrintable(name));
        for (const auto &[key, text] : std::as_const(changes)) {
            Params changed = setting;
            if (ParamText::set(changed, key, text) || !changed.isValid())
                continue;
            const QStringList keys = ParamTable::changedKeys(setting, changed);
            const FigureModel::Reading now = heatmap().readingAt({}, changed);
            const bool read
                = std::any_of(keys.begin(), keys.end(), [&](const QString &k) { return now.keys.contains(k); });
            if (keys.isEmpty() || was.tables != now.tables || read)
                continue;
            const auto after = computed(changed);
            QVERIFY2(after, qPrintable(name));
            const QString moved = difference(*before, *after);
            QVERIFY2(moved.isEmpty(),
                     qPrintable(u"%1, %2=%3 moved %4, but the heatmap does not read it"_s.arg(name, key, text, moved)));
            ++compared;
            skippedScale += key == u"scale"_s && setting.encoding == Encoding::Sinusoidal ? 1 : 0;
        }
    }
    // Every family's settings try many keys; the sinusoid's heatmap leaves s alone.
    QVERIFY2(compared > 100, qPrintable(QString::number(compared)));
    QVERIFY(skippedScale > 0);
}

// A quantity chosen in the view's options reads what its table reads, whatever the parameters; X
// reads s.
void TestHeatmapReading::aChosenQuantityReadsAsBefore()
{
    FigureState state;
    state.options.insert(u"quantity"_s, u"input"_s);
    const FigureModel::Reading chosen = heatmap().readingAt(state, Params());
    QCOMPARE(chosen.keys, heatmap().reads(state));
    QVERIFY(chosen.keys.contains(u"scale"_s));
    const FigureModel::Reading natural = heatmap().readingAt({}, Params());
    QCOMPARE(natural.tables, QList<Quantity> {Quantity::Pe});
    QVERIFY(!natural.keys.contains(u"scale"_s));
}

POSENC_TEST_MAIN(TestHeatmapReading)
} // namespace tst_heatmapreading
#include "tst_heatmapreading.moc"
