// A lesson's figure gets the room (docs/ARCHITECTURE.md, Lessons): at 1366 x 768, a laptop's
// screen, every lesson's main figure is at least 60 % of the window's width, and no heatmap in it
// is narrower than 120 pixels. The parameter panel folds to a strip for it, opens again with one
// click, and is as it was once the lessons end; the lesson's text can sit below the figure.
#include "core/ParamOverlay.h"
#include "core/ParamText.h"
#include "gui/ControlPanel.h"
#include "gui/FigureView.h"
#include "gui/LessonController.h"
#include "gui/LessonPanel.h"
#include "gui/LessonRoom.h"
#include "gui/MainWindow.h"
#include "gui/ParameterDock.h"
#include "io/LessonModels.h"
#include "support/TestMain.h"
#include "support/TestShots.h"
#include "support/WindowFixture.h"

#include <QAbstractButton>
#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QSet>
#include <QSettings>
#include <QStyle>
#include <QTemporaryDir>
#include <QTest>
#include <QtMath>

#include <memory>

namespace tst_lessonroom {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

constexpr QSize kLaptop(1366, 768);
// The least width of a heatmap a student can read.
constexpr int kLeastHeatmap = 120;

// The axis rects of `plot` that hold a heatmap, and their widths.
QList<int> heatmapWidths(QCustomPlot *plot)
{
    QList<int> widths;
    for (QCPAxisRect *rect : plot->axisRects()) {
        const QList<QCPAbstractPlottable *> plottables = rect->plottables();
        if (std::any_of(plottables.begin(), plottables.end(),
                        [](QCPAbstractPlottable *p) { return qobject_cast<QCPColorMap *>(p); }))
            widths.append(rect->width());
    }
    return widths;
}

// The window at a laptop's size in the lesson `name`, its views drawn: the lesson opened in the
// window shown, or, `atStart`, before it shows, as `posenc --lesson NAME` opens it.
bool openAtLaptopSize(MainWindow &window, const QString &name, bool atStart = false)
{
    window.resize(kLaptop);
    if (atStart && !window.lessons()->open(name))
        return false;
    window.show();
    if (!QTest::qWaitForWindowExposed(&window) || (!atStart && !window.lessons()->open(name)))
        return false;
    return QTest::qWaitFor([&window] { return window.isSettled(); }, 120000);
}

// The panel's buttons that `window` does not show whole: outside the window, or cut by a scroll
// area's edge (a long text on a laptop pushed the last row out of the dock).
QStringList buttonsCut(const MainWindow &window)
{
    QStringList cut;
    const LessonPanel *panel = window.lessons()->panel();
    for (const QAbstractButton *button : panel->findChildren<QAbstractButton *>()) {
        if (!button->isVisibleTo(&window))
            continue;
        const QRect inWindow(button->mapTo(&window, QPoint(0, 0)), button->size());
        if (!window.rect().contains(inWindow) || button->visibleRegion().boundingRect() != button->rect())
            cut.append(button->text());
    }
    return cut;
}

// What of the lesson's text page `window` does not show as laid out: the code box lower than its
// lines (cut, where it does not scroll), the code box over the explanation, the text wider than
// its scroll area.
QString codeLaidOut(const MainWindow &window)
{
    const LessonPanel *panel = window.lessons()->panel();
    const auto *code = panel->findChild<const QScrollArea *>(u"lessonCodeScroll"_s);
    const auto *label = panel->findChild<const QLabel *>(u"lessonCode"_s);
    const auto *explanation = panel->findChild<const QLabel *>(u"lessonExplanation"_s);
    if (!code || !label || !explanation)
        return u"no code box"_s;
    if (!code->isVisibleTo(panel))
        return {};
    // Every line of the code is in the box, top to bottom, or the box scrolls up and down where its
    // lines are more than the text beside the figure, or the column below it, leaves.
    if (code->viewport()->height() < label->sizeHint().height() && !code->verticalScrollBar()->isVisible())
        return u"the code's %1 px of lines in a %2 px box"_s.arg(label->sizeHint().height())
            .arg(code->viewport()->height());
    const QRect box(code->mapTo(&window, QPoint(0, 0)), code->size());
    const QRect text(explanation->mapTo(&window, QPoint(0, 0)), explanation->size());
    if (box.intersects(text))
        return u"the code box (%1 px high) overlaps the explanation"_s.arg(box.height());
    if (!code->verticalScrollBar()->isVisible() && label->height() < label->sizeHint().height())
        return u"the code's label is %1 px of %2"_s.arg(label->height()).arg(label->sizeHint().height());
    // The text wraps within its scroll area: no line runs under its scroll bar or past its edge.
    const auto *scroll = panel->findChild<const QScrollArea *>(u"lessonTextScroll"_s);
    if (scroll && scroll->widget()->width() > scroll->viewport()->width())
        return u"the lesson's text is %1 px in %2"_s.arg(scroll->widget()->width()).arg(scroll->viewport()->width());
    return {};
}

// What of the lesson's text `window` does not show on its first screen beside the figure: the
// explanation's last line below the text's view, or the text scrolled; the code box showing fewer
// than its least lines, or cut without scrolling.
QString textCut(const MainWindow &window)
{
    const LessonPanel *panel = window.lessons()->panel();
    const auto *scroll = panel->findChild<const QScrollArea *>(u"lessonTextScroll"_s);
    const auto *explanation = panel->findChild<const QLabel *>(u"lessonExplanation"_s);
    const auto *code = panel->findChild<const QScrollArea *>(u"lessonCodeScroll"_s);
    const auto *label = panel->findChild<const QLabel *>(u"lessonCode"_s);
    if (!scroll || !explanation || !code || !label)
        return u"no text"_s;
    // The explanation's lines as Qt lays them out at its width, from the text's top.
    const int end = explanation->mapTo(scroll->widget(), QPoint(0, 0)).y()
        + explanation->heightForWidth(explanation->width());
    if (scroll->verticalScrollBar()->value() != 0 || end > scroll->viewport()->height())
        return u"the text ends at %1 px of a %2 px view"_s.arg(end).arg(scroll->viewport()->height());
    if (!code->isVisibleTo(panel))
        return {};
    const int whole = label->sizeHint().height();
    const int least
        = std::min(whole, LessonPanel::kLeastCodeLines * label->fontMetrics().lineSpacing() + 2 * label->margin());
    if (code->viewport()->height() < least)
        return u"the code box shows %1 px of its %2"_s.arg(code->viewport()->height()).arg(least);
    if (code->viewport()->height() < whole && !code->verticalScrollBar()->isVisible())
        return u"the code box cuts its %1 px of lines at %2, unscrolled"_s.arg(whole).arg(code->viewport()->height());
    // No room kept under the lines for a sideways scroll bar not shown (LessonPanel::fitCodeBeside):
    // a box so kept was a line short where its lines only just fitted, and scrolled (many-layers).
    const int extent = code->style()->pixelMetric(QStyle::PM_ScrollBarExtent);
    if (!code->horizontalScrollBar()->isVisible() && !code->verticalScrollBar()->isVisible()
        && code->viewport()->height() - whole >= extent)
        return u"the code box keeps %1 px under its lines"_s.arg(code->viewport()->height() - whole);
    return {};
}

// A wrapped label's heights for the widths a dock may give it, narrow to wide.
QList<int> heightsOf(const QLabel &label)
{
    QList<int> all;
    for (int width = 100; width <= 800; width += 23)
        all.append(label.heightForWidth(width));
    return all;
}

// Qt's own label of `label`'s text, as `label` sets it (the reference for its heights).
std::unique_ptr<QLabel> asQtLaysItOut(const QLabel &label)
{
    auto plain = std::make_unique<QLabel>();
    plain->setWordWrap(true);
    plain->setTextFormat(Qt::RichText);
    plain->setAlignment(label.alignment());
    plain->setContentsMargins(label.contentsMargins());
    plain->setFont(label.font());
    plain->setText(label.text());
    return plain;
}

} // namespace

class TestLessonRoom : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void theMainFigureGetsTheRoom_data();
    void theMainFigureGetsTheRoom();
    void theStripOpensTheParametersInOneClick();
    void theTextCanSitBelowTheFigure();
    void aWideWindowKeepsItsParameters();
    void theCodeBoxFollowsThePreset();
    void theTextIsAsHighAsQtLaysItOut();
    void aPresetChosenReadsTheLessonForItsModel();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QSettings> m_settings;
};

void TestLessonRoom::init()
{
    m_settings.reset();
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_settings = std::make_unique<QSettings>(m_dir->filePath(u"posenc.ini"_s), QSettings::IniFormat);
}

void TestLessonRoom::theMainFigureGetsTheRoom_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("atStart");
    for (const Lesson &lesson : Lessons::all()) {
        QTest::newRow(qPrintable(lesson.name)) << lesson.name << false;
        QTest::newRow(qPrintable(lesson.name + u" at the start"_s)) << lesson.name << true;
    }
}

void TestLessonRoom::theMainFigureGetsTheRoom()
{
    QFETCH(QString, name);
    QFETCH(bool, atStart);
    MainWindow window(Params {}, m_settings.get());
    QVERIFY(openAtLaptopSize(window, name, atStart));
    QCOMPARE(window.size(), kLaptop);
    const FigureView *view = window.views()[Lessons::find(name)->mainView];
    TestShots::save(window.grab().toImage(), u"lessonroom-"_s + name);
    const int least = qCeil(LessonRoom::kFigureShare * window.width());
    QVERIFY2(view->plot()->width() >= least,
             qPrintable(u"the figure is %1 px of %2"_s.arg(view->plot()->width()).arg(window.width())));
    for (const int width : heatmapWidths(view->plot()))
        QVERIFY2(width >= kLeastHeatmap, qPrintable(u"a heatmap %1 px across"_s.arg(width)));
    QVERIFY(window.parameterDock()->isFolded());
    // The text is whole beside it: no wider than its scroll area shows (long code lines scroll
    // sideways in their own box rather than cut the explanation), and a long text scrolls above the
    // buttons, which stay in the window whatever its length.
    const auto *scroll = window.lessons()->panel()->findChild<const QScrollArea *>(u"lessonTextScroll"_s);
    QVERIFY(scroll);
    QVERIFY2(scroll->widget()->width() <= scroll->viewport()->width(),
             qPrintable(u"the lesson's text is %1 px in %2"_s.arg(scroll->widget()->width())
                            .arg(scroll->viewport()->width())));
    QVERIFY2(buttonsCut(window).isEmpty(), qPrintable(u"cut: "_s + buttonsCut(window).join(u", "_s)));
    // At the window's smallest size the explanation reads whole without scrolling, the code box
    // scrolling its lines past its least where they do not all fit.
    QTRY_VERIFY2(textCut(window).isEmpty(), qPrintable(textCut(window)));
    // Each label of the text is as high for a width as Qt's own label of it (WrappedLabel's measure).
    for (const QString &label : {u"lessonTitle"_s, u"lessonQuestion"_s, u"lessonExplanation"_s}) {
        const auto *shown = window.lessons()->panel()->findChild<const QLabel *>(label);
        QVERIFY(shown);
        QCOMPARE(heightsOf(*shown), heightsOf(*asQtLaysItOut(*shown)));
    }
    // Below the figure too.
    window.lessons()->room()->textBelowAction()->trigger();
    QTRY_VERIFY2(buttonsCut(window).isEmpty(), qPrintable(u"cut below: "_s + buttonsCut(window).join(u", "_s)));
    window.lessons()->room()->textBelowAction()->trigger();
}

void TestLessonRoom::theStripOpensTheParametersInOneClick()
{
    MainWindow window(Params {}, m_settings.get());
    QVERIFY(openAtLaptopSize(window, u"what-dropout-does"_s));
    ParameterDock *dock = window.parameterDock();
    QVERIFY(dock->isFolded());
    QVERIFY(dock->strip()->isVisible());
    QVERIFY(!dock->scrollArea()->isVisible());
    QVERIFY(dock->width() <= dock->stripWidth() + 2);
    QTest::mouseClick(dock->strip(), Qt::LeftButton);
    QVERIFY(!dock->isFolded());
    QTRY_VERIFY(dock->scrollArea()->isVisible());
    QTRY_VERIFY(dock->width() >= dock->scrollArea()->minimumWidth());
    QVERIFY(!window.parameterDock()->foldAction()->isChecked());
    // Folded again by its action, and open as before the lessons once they end.
    dock->foldAction()->trigger();
    QVERIFY(dock->isFolded());
    QVERIFY(window.lessons()->open(u"frequencies"_s)); // the next lesson keeps it so
    QVERIFY(dock->isFolded());
    window.lessons()->leave();
    QVERIFY(!dock->isFolded());
    QTRY_VERIFY(dock->scrollArea()->isVisible());
}

void TestLessonRoom::theTextCanSitBelowTheFigure()
{
    {
        MainWindow window(Params {}, m_settings.get());
        QVERIFY(openAtLaptopSize(window, u"masked-dropout"_s));
        QDockWidget *dock = window.lessons()->dock();
        QCOMPARE(window.dockWidgetArea(dock), Qt::RightDockWidgetArea);
        auto *place = window.lessons()->panel()->findChild<QAbstractButton *>(u"lessonPlace"_s);
        QVERIFY(place);
        QTest::mouseClick(place, Qt::LeftButton);
        QCOMPARE(window.dockWidgetArea(dock), Qt::BottomDockWidgetArea);
        QVERIFY(window.lessons()->panel()->isTextBelow());
        QVERIFY(window.lessons()->room()->textBelowAction()->isChecked());
        // Below the figure, the text leaves it the window's width beside the strip.
        QTRY_VERIFY(window.views().front()->plot()->width() >= 0.9 * window.width());
        QTRY_VERIFY_WITH_TIMEOUT(window.isSettled(), 60000);
        TestShots::save(window.grab().toImage(), u"lessonroom-below"_s);
    }
    // Remembered: the next window puts it there too.
    MainWindow again(Params {}, m_settings.get());
    QVERIFY(openAtLaptopSize(again, u"rope-relative"_s));
    QCOMPARE(again.dockWidgetArea(again.lessons()->dock()), Qt::BottomDockWidgetArea);
    again.lessons()->room()->textBelowAction()->trigger();
    QCOMPARE(again.dockWidgetArea(again.lessons()->dock()), Qt::RightDockWidgetArea);
}

void TestLessonRoom::aWideWindowKeepsItsParameters()
{
    // A window with room for the figure beside the parameters and the text leaves the panel open.
    MainWindow window(Params {}, m_settings.get());
    window.resize(2560, 1200);
    QVERIFY(WindowFixture::shown(window));
    QVERIFY(window.lessons()->open(u"what-dropout-does"_s));
    QVERIFY(!window.parameterDock()->isFolded());
    const FigureView *view = window.views().front();
    QTRY_VERIFY(view->plot()->width() >= LessonRoom::kFigureShare * window.width());
}

// The code box follows the model the lesson is read for (LessonCode), and its height with it:
// choosing presets with the lesson open at a laptop's size, from a short box to longer ones and
// back, the panel is laid out anew each time, the code whole above the explanation.
void TestLessonRoom::theCodeBoxFollowsThePreset()
{
    MainWindow window(Params {}, m_settings.get());
    QVERIFY(openAtLaptopSize(window, u"rope-relative"_s));
    ControlPanel *controls = window.controlPanel();
    const auto *label = window.lessons()->panel()->findChild<const QLabel *>(u"lessonCode"_s);
    QVERIFY(label);
    QSet<int> heights;
    const QStringList names {u"mistral-7b"_s,    u"gpt-j-6b"_s,     u"deepseek-v3"_s,
                             u"llama-4-scout"_s, u"gpt-neox-20b"_s, u"mistral-7b"_s};
    for (qsizetype i = 0; i < 2 * names.size(); ++i) {
        const QString &name = names[i % names.size()];
        // The text beside the figure, then below it.
        if (i == names.size())
            window.lessons()->room()->textBelowAction()->trigger();
        const auto preset = std::find_if(controls->presets().begin(), controls->presets().end(),
                                         [&name](const Preset &p) { return p.name == name; });
        QVERIFY(preset != controls->presets().end());
        QVERIFY(controls->choosePreset(int(preset - controls->presets().begin())));
        QTRY_VERIFY_WITH_TIMEOUT(window.isSettled(), 60000);
        QCoreApplication::processEvents();
        TestShots::save(window.grab().toImage(),
                        u"lessonroom-code-"_s + name
                            + (window.lessons()->panel()->isTextBelow() ? u"-below"_s : QString()));
        QVERIFY2(label->text().contains(u"models/"_s), qPrintable(name));
        heights.insert(label->sizeHint().height());
        QTRY_VERIFY2(codeLaidOut(window).isEmpty(), qPrintable(name + u": "_s + codeLaidOut(window)));
        QVERIFY2(buttonsCut(window).isEmpty(), qPrintable(name + u": cut "_s + buttonsCut(window).join(u", "_s)));
    }
    QVERIFY(heights.size() >= 3); // boxes of several heights were laid out
}

// The lesson's text is as high for a width as Qt's own label of the same text lays it out: the
// heights the panel remembers for the widths its dock's layouts ask for follow its text, a lesson
// opened after another, and its font.
void TestLessonRoom::theTextIsAsHighAsQtLaysItOut()
{
    MainWindow window(Params {}, m_settings.get());
    QVERIFY(openAtLaptopSize(window, u"what-dropout-does"_s));
    auto *explanation = window.lessons()->panel()->findChild<QLabel *>(u"lessonExplanation"_s);
    QVERIFY(explanation);
    const auto qtHeights = [&] { return heightsOf(*asQtLaysItOut(*explanation)); };
    const auto heights = [](const QLabel &label) { return heightsOf(label); };
    const QList<int> first = heights(*explanation);
    QCOMPARE(first, qtHeights());
    QVERIFY(window.lessons()->open(u"nope-order"_s));
    QTRY_VERIFY_WITH_TIMEOUT(window.isSettled(), 60000);
    QCOMPARE(heights(*explanation), qtHeights());
    QVERIFY(heights(*explanation) != first);
    QFont larger = explanation->font();
    larger.setPointSizeF(larger.pointSizeF() * 1.5);
    const QList<int> before = heights(*explanation);
    explanation->setFont(larger);
    QCOMPARE(heights(*explanation), qtHeights());
    QVERIFY(heights(*explanation) != before);
}

// A preset chosen with a lesson open reads the lesson for its model, as opening the lesson with it
// does: dropout-on-sum's special rows are the model's tokens. MAE's patch table has a class row at
// 0 (models/vit_mae: get_2d_sincos_pos_embed(..., add_cls_token=True)) and no [SEP]; Whisper's
// audio encoder and the Transformer base have neither, so no row is special and neither the text
// nor the figure names a [CLS] or [SEP] (the lesson's rows 0 and -1 stayed when a preset was
// chosen, the figure naming "[CLS] at 0, [SEP] at 63" for Whisper).
void TestLessonRoom::aPresetChosenReadsTheLessonForItsModel()
{
    MainWindow window(Params {}, m_settings.get());
    window.resize(1920, 1080); // the figure's subtitle, which names the rows, whole
    QVERIFY(WindowFixture::shown(window));
    QVERIFY(window.lessons()->open(u"dropout-on-sum"_s));
    QTRY_VERIFY_WITH_TIMEOUT(window.isSettled(), 120000);
    ControlPanel *controls = window.controlPanel();
    const auto figureTexts = [&window] {
        QStringList texts;
        const FigureView *view = window.views()[Lessons::find(u"dropout-on-sum"_s)->mainView];
        for (QCPLayoutElement *element : view->plot()->plotLayout()->elements(true))
            if (auto *text = qobject_cast<QCPTextElement *>(element); text && text->visible())
                texts.append(text->text());
        return texts.join(u'\n');
    };
    const QList<std::pair<QString, QString>> models {
        {u"mae-vit-b-16"_s, u"0"_s}, {u"whisper-large-v3"_s, u"none"_s}, {u"mae-vit-b-16"_s, u"0"_s},
        {u"transformer-base"_s, u"none"_s}};
    for (const auto &[name, special] : models) {
        const auto preset = std::find_if(controls->presets().begin(), controls->presets().end(),
                                         [&name = name](const Preset &p) { return p.name == name; });
        QVERIFY(preset != controls->presets().end());
        QVERIFY(controls->choosePreset(int(preset - controls->presets().begin())));
        QTRY_VERIFY_WITH_TIMEOUT(window.isSettled(), 120000);
        QCOMPARE(ParamText::get(controls->params(), u"special"_s), special);
        const QString text = window.lessons()->panel()->explanationText(), figure = figureTexts();
        QVERIFY2(!text.contains(u"[SEP]"_s) && !figure.contains(u"[SEP]"_s), qPrintable(name + u": "_s + figure));
        if (special == u"none"_s)
            QVERIFY2(!text.contains(u"[CLS]"_s) && !figure.contains(u"[CLS]"_s), qPrintable(name + u": "_s + figure));
        // The parameters opening the lesson with the preset gives (posenc --lesson NAME --preset P).
        const Lesson &lesson = *window.lessons()->current();
        auto opened = ParamOverlay::over(Params {}, LessonModels::textsFor(lesson, ModelChoice::ofPreset(*preset)));
        QVERIFY(std::holds_alternative<Params>(opened));
        std::get<Params>(opened).memoryBudget = controls->params().memoryBudget;
        QVERIFY2(std::get<Params>(opened) == controls->params(), qPrintable(name));
    }
}

POSENC_TEST_MAIN(TestLessonRoom)
} // namespace tst_lessonroom
#include "tst_lessonroom.moc"
