// A colour bar's label on little room stays true of every panel it colours (docs/ARCHITECTURE.md,
// "Figures at any size"): a bar shared by rope-cos and rope-sin shortened to its first part read
// "cos(p·θᵢ)" beside the rope-sin panel at a paper's column, and rope-input's "X, R(p)·X and their
// difference" read "X" beside R(p)·X; the figure's own shorter form (ShorterLabels) is taken instead.
#include "render/FigureRoom.h"
#include "render/FigureSize.h"
#include "support/TestMain.h"

#include "FigureDefaults.h"
#include "io/Preset.h"
#include "support/FigureBuilds.h"

#include <QRegularExpression>
#include <QTest>

namespace tst_barlabels {
using namespace Qt::StringLiterals;
using namespace posenc;

class TestBarLabels : public QObject
{
    Q_OBJECT

private slots:
    void aSharedBarNamesEveryPanel_data();
    void aSharedBarNamesEveryPanel();
};

void TestBarLabels::aSharedBarNamesEveryPanel_data()
{
    QTest::addColumn<QString>("figure");
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("size");
    // What the label shown says, whole or shortened: both functions; the whole or "value".
    QTest::addColumn<QString>("pattern");
    // Whether the shared bar is drawn with its whole label given (rope-sin left out at 6 x 4 cm, and
    // rope-input's compact "value" at a column and below); where drawn otherwise, it is read too.
    QTest::addColumn<bool>("drawn");
    for (const QString &size : {u"column"_s, u"6x4cm"_s, u"double"_s, u"slide"_s})
        for (const QString &preset : {QString(), u"llama-3-1-8b"_s}) {
            QTest::addRow("rope-rotation %s %s", qPrintable(preset), qPrintable(size))
                << u"rope-rotation"_s << preset << size << u"cos.*, .*sin"_s << (size != u"6x4cm"_s);
            QTest::addRow("rope-input %s %s", qPrintable(preset), qPrintable(size))
                << u"rope-input"_s << preset << size << u"^(X, R\\(p\\)·X and their difference|value)$"_s
                << (size == u"double"_s || size == u"slide"_s);
        }
}

void TestBarLabels::aSharedBarNamesEveryPanel()
{
    QFETCH(QString, figure);
    QFETCH(QString, preset);
    QFETCH(QString, size);
    QFETCH(QString, pattern);
    QFETCH(bool, drawn);
    Params params = FigureBuilds::defaultParams(FigureBuilds::figure(figure));
    if (!preset.isEmpty()) {
        auto applied = Presets::find(preset)->applyTo(params);
        QVERIFY(std::holds_alternative<Params>(applied));
        params = std::get<Params>(std::move(applied));
    }
    const auto page = FigureSizes::page(size, 300.0);
    QVERIFY(std::holds_alternative<FigureSize>(page));
    FigureStyle style;
    style.fontPointSize = 9.0;
    // A paper's page grows for the panels as posenc export's does (the bar beside rope-sin drawn).
    const FigureSize grown = FigureBuilds::grown(figure, params, std::get<FigureSize>(page), style);
    const auto built = FigureBuilds::build(figure, params, grown, {}, style);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    // Each bar's label as shown, then as its figure gave it (the room's steps undone).
    QList<std::pair<QCPColorScale *, QString>> shown;
    for (QCPLayoutElement *element : built->plot()->plotLayout()->elements(true))
        if (auto *scale = qobject_cast<QCPColorScale *>(element); scale && scale->realVisibility())
            shown.append({scale, FigureRoom::shownLabel(scale->axis()).replace(u'\n', u' ')});
    FigureRoom::restore(built->plot());
    int bars = 0;
    for (const auto &[scale, label] : shown) {
        // The bar of the panels' values (rope-rotation's other bar colours the circle's positions).
        if (!scale->axis()->label().contains(u',') || label.isEmpty())
            continue; // given up whole, which tst_figuresizes weighs
        ++bars;
        QVERIFY2(QRegularExpression(pattern).match(label).hasMatch(), qPrintable(label));
    }
    QCOMPARE(bars > 0, drawn);
}

POSENC_TEST_MAIN(TestBarLabels)
} // namespace tst_barlabels
#include "tst_barlabels.moc"
