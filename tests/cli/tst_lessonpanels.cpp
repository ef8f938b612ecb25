// A lesson's slide draws what its text refers to (docs/ARCHITECTURE.md, Exporting), as
// `posenc export --lesson NAME all --size 25.4x14.29cm --font-size 14` builds it: every view the
// text names ("the alibi-slopes view") is on the page, and every panel it refers to ("the fraction
// chart", "the tables") is drawn, not given up for room. The what-dropout-does slide drew its four
// heatmaps only, its text going through the scatter and the fraction chart; rope-relative's spoke
// of the tables its rotation figure had given up. Read for every lesson's own model and for models
// of three other families. And a text that refers to a panel says which (its alternative's
// "panels"), so that the slide can keep it; and the page's layout is the one the main figure draws
// the most panels on, which is not always the usual grid. Every axis keeps two of its numbers.
#include "LessonSlidePage.h"
#include "cli/LessonOptions.h"
#include "cli/LessonPage.h"
#include "cli/ParamOptions.h"
#include "support/TestMain.h"

#include "check/models/LayerLessonNumbers.h"
#include "core/LessonNumbers.h"

#include "render/FigureBuild.h"
#include "render/FigureFit.h"
#include "render/FigurePage.h"
#include "render/FigureRegistry.h"
#include "render/FigureRoom.h"
#include "render/KeptPanels.h"
#include "render/MeasuredText.h"
#include "render/ShorterLabels.h"

#include "support/KeptKeys.h"
#include "support/ReadableScales.h"

#include <QCommandLineParser>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

#include <algorithm>
#include <limits>

namespace tst_lessonpanels {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

using LessonSlidePage::pageOf;
using LessonSlidePage::readFor;
using LessonSlidePage::slide;

} // namespace

class TestLessonPanels : public QObject
{
    Q_OBJECT

    // The rows of a test over every lesson: its default model, then each of `presets`.
    static void lessonRows(const QStringList &presets)
    {
        QTest::addColumn<QString>("lesson");
        QTest::addColumn<QStringList>("model");
        for (const Lesson &lesson : Lessons::all()) {
            QTest::newRow(qPrintable(lesson.name)) << lesson.name << QStringList();
            for (const QString &preset : presets)
                QTest::newRow(qPrintable(lesson.name + u" "_s + preset))
                    << lesson.name << QStringList {u"--preset"_s, preset};
        }
    }

    // A figure on a lesson's slide gives up a panel to fit its cell (its plots half of it, at
    // least), not for a sliver more of it where nothing fits: dropout-on-sum's slide for
    // Transformer big gave up three of its five upper panels for half a percent of the page.
    // Undoes the page's room steps (FigureRoom::restore) to count the panels made.
    static void givesUpAPanelOnlyToFit(const LessonPage::Request &request, const LessonPage::Page &page)
    {
        for (qsizetype i = 0; i < request.figures.size(); ++i) {
            QCustomPlot *plot = page.builds[std::size_t(i)]->plot();
            QVERIFY(!page.builds[std::size_t(i)]->error());
            const qsizetype drawn = FigureBuild::plotRects(*plot).size();
            double share = 0.0;
            for (const QCPAxisRect *rect : FigureBuild::plotRects(*plot))
                share += double(rect->width()) * rect->height();
            share /= double(plot->viewport().width()) * plot->viewport().height();
            FigureRoom::restore(plot);
            const qsizetype made = FigureBuild::plotRects(*plot).size();
            QVERIFY2(
                drawn == made || share >= 0.5,
                qPrintable(u"%1 draws %2 of its %3 panels, its plots %4 % of its cell"_s.arg(request.figures[i]->name())
                               .arg(drawn)
                               .arg(made)
                               .arg(100.0 * share, 0, 'f', 1)));
        }
    }

    // A slide's figure keeps its title, what its audience reads first, where its plots still hold
    // half of its cell with it (issue 60: why-sqrt-d's and what-dropout-does' 16:9 slides at 14 pt
    // lost theirs while later steps had room to give). Its title goes only where that keeps a panel
    // the other steps gave up, or where nothing fits with it: each such slide is listed with what
    // the title's room keeps.
    static void keepsItsTitle(const LessonPage::Request &request, const LessonPage::Page &page)
    {
        for (qsizetype i = 0; i < request.figures.size(); ++i) {
            QCustomPlot *plot = page.builds[std::size_t(i)]->plot();
            const QString whole = FigureRoom::fullTitle(*plot);
            if (whole.isEmpty())
                continue;
            const auto *title = qobject_cast<QCPTextElement *>(plot->plotLayout()->elementAt(0));
            const bool drawn
                = title && title->realVisibility() && !title->text().isEmpty() && title->outerRect().height() > 1;
            const QString row = QString::fromLatin1(QTest::currentDataTag()) + u" "_s + request.figures[i]->name();
            // Left-padding's position-effect, three panels and their keys in half of the slide, is
            // under half of its cell with its title whatever else goes: the title makes the room.
            static const QSet<QString> untitled {
                u"left-padding position-effect"_s,
                u"left-padding llama-4-scout position-effect"_s,
            };
            QVERIFY2(drawn != untitled.contains(row),
                     qPrintable(row + (drawn ? u" keeps its title"_s : u" lost its title: "_s + whole)));
        }
    }

    // A slide's title keeps the parts that name the model's parameters while its panels' titles
    // give up their second lines (ShorterLabels::setModelParts), and a panel's title is shortened by
    // whole clauses, not cut within one: rope-relative's slide for DeepSeek-V3 lost "yarn, factor
    // 40, original 4,096" from its title and kept "pair 4, p = 0–20 (one …" over the circle.
    static void cutsNoClause(const LessonPage::Request &request, const LessonPage::Page &page)
    {
        for (qsizetype i = 0; i < request.figures.size(); ++i) {
            QCustomPlot *plot = page.builds[std::size_t(i)]->plot();
            const QString name = request.figures[i]->name();
            QStringList cut;
            for (QCPLayoutElement *element : plot->plotLayout()->elements(true)) {
                const auto *text = qobject_cast<QCPTextElement *>(element);
                if (!text || !text->realVisibility() || text->text().isEmpty() || text->outerRect().height() <= 1)
                    continue;
                const QString shown = text->text();
                if (FigureRoom::roleOf(text) == TextRole::Title) {
                    for (const QString &part : ShorterLabels::ofModelParts(text))
                        QVERIFY2(part.isEmpty() || shown.contains(part),
                                 qPrintable(u"%1's title lost \"%2\": %3"_s.arg(name, part, shown)));
                } else if (FigureRoom::roleOf(text) == TextRole::PanelTitle && shown.endsWith(u"…"_s)) {
                    cut.append(shown);
                }
            }
            // MAE's dropout-compare beside its magnitudes view, five columns in about 100 layout
            // units each, cut its PE row's titles to "PE …": their shortest form is the fall, "−10 %".
            QVERIFY2(cut.isEmpty(), qPrintable(u"%1 cut its panels' titles: %2"_s.arg(name, cut.join(u"; "_s))));
        }
    }

    // The panels of one row of a slide read alike: their x labels in one form (dropout-on-sum's
    // slide for MAE read "column" under one heatmap and "column j" under four; FigureRoom's
    // oneLabelFormPerRow), and their titles of one kind wrapped in one room, so that no title is
    // in more lines than it would be in the widest line beside it ("lost: 10.2 %" in one line in
    // two cells, in two lines in three, for Transformer base).
    static void rowsReadAlike(const LessonPage::Request &request, const LessonPage::Page &page)
    {
        for (qsizetype i = 0; i < request.figures.size(); ++i) {
            const QCustomPlot &plot = *page.builds[std::size_t(i)]->plot();
            const QString name = request.figures[i]->name();
            QList<const QCPAxis *> axes;
            for (const QCPAxisRect *rect : FigureBuild::plotRects(plot))
                if (const QCPAxis *axis = rect->axis(QCPAxis::atBottom); axis->visible() && !axis->label().isEmpty())
                    axes.append(axis);
            const auto text = [](const QString &label) { return QString(label).replace(u'\n', u' ').trimmed(); };
            for (const QCPAxis *a : std::as_const(axes))
                for (const QCPAxis *b : std::as_const(axes)) {
                    const QString x = text(a->label()), y = text(b->label());
                    if (a == b || x == y || std::abs(a->axisRect()->rect().bottom() - b->axisRect()->rect().bottom()) > 2)
                        continue;
                    QVERIFY2(!x.startsWith(y) && !y.startsWith(x),
                             qPrintable(u"%1: \"%2\" beside \"%3\" in one row"_s.arg(name, x, y)));
                }
            // One label under the panels of a row is wrapped alike (families' offset label).
            for (const QCPAxis *a : std::as_const(axes))
                for (const QCPAxis *b : std::as_const(axes))
                    if (text(a->label()) == text(b->label())
                        && std::abs(a->axisRect()->rect().bottom() - b->axisRect()->rect().bottom()) <= 2)
                        QVERIFY2(a->label().count(u'\n') == b->label().count(u'\n'),
                                 qPrintable(u"%1: \"%2\" beside \"%3\""_s.arg(name, a->label(), b->label())));
            QList<const QCPTextElement *> titles;
            for (QCPLayoutElement *element : plot.plotLayout()->elements(true))
                if (const auto *title = qobject_cast<const QCPTextElement *>(element);
                    title && title->realVisibility() && FigureRoom::roleOf(title) == TextRole::PanelTitle
                    && !title->text().isEmpty() && !ShorterLabels::ofText(title).isEmpty())
                    titles.append(title);
            // Titles wrapped in one room R take no more lines than they would in the widest line of
            // words any of them shows, which is at most R (a word alone may be wider).
            const auto widestLine = [](const QCPTextElement *title) {
                double widest = 0.0;
                for (const QString &line : title->text().split(u'\n'))
                    if (line.trimmed().contains(u' '))
                        widest = std::max(widest, MeasuredText::advance(title->font(), line));
                return widest;
            };
            for (const QCPTextElement *a : std::as_const(titles)) {
                const QString given = FigureFit::unwrapped(a);
                if (widestLine(a) <= 0.0 || FigureFit::wrap(given, a->font(), widestLine(a)) != a->text())
                    continue; // not a wrap of the text as its figure set it (a shorter form)
                double room = 0.0;
                for (const QCPTextElement *b : std::as_const(titles))
                    if (ShorterLabels::ofText(a).size() == ShorterLabels::ofText(b).size()
                        && std::abs(a->outerRect().top() - b->outerRect().top()) <= 2)
                        room = std::max(room, widestLine(b));
                const QString rewrapped = FigureFit::wrap(given, a->font(), room);
                QVERIFY2(rewrapped.count(u'\n') >= a->text().count(u'\n'),
                         qPrintable(u"%1: \"%2\" wrapped narrower than its row's titles (as \"%3\")"_s.arg(
                             name, a->text(), rewrapped)));
            }
        }
    }

    // Every axis of a lesson's 14-pt slide keeps two of its numbers at least where its label shares
    // their row (issue 60: why-sqrt-d's d_model axis showed only 10² beside "d_model"). Read for
    // the models whose slides lost end tick labels so: gpt-oss-20b's rotation circle, deepseek-v3's
    // decay, Llama 4 Scout's left padding.
    static void axesKeepTwoNumbers(const LessonPage::Request &request, const LessonPage::Page &page)
    {
        for (qsizetype i = 0; i < request.figures.size(); ++i) {
            const QStringList unreadable = ReadableScales::unreadable(*page.builds[std::size_t(i)]->plot());
            QVERIFY2(unreadable.isEmpty(), qPrintable(request.figures[i]->name() + u": "_s + unreadable.join(u"; "_s)));
        }
    }

    // A slide's figure keeps each key of a panel it draws, every entry whole or in a shorter form
    // its figure gives, never cut with "…" (FigureRoom's elideEntries takes fewer columns first:
    // what-dropout-does' 16:9 slide read "p ± 4√(p(1−…" where two columns held it whole), and its
    // entries reading apart (KeptKeys). Undoes the page's room steps to read the entries' names.
    static void keepsItsKeysWhole(const LessonPage::Request &request, const LessonPage::Page &page)
    {
        for (qsizetype i = 0; i < request.figures.size(); ++i) {
            QCustomPlot *plot = page.builds[std::size_t(i)]->plot();
            const KeptKeys::Keys keys(*plot);
            QStringList cut;
            for (QCPLayoutElement *element : plot->plotLayout()->elements(true)) {
                auto *legend = qobject_cast<QCPLegend *>(element);
                if (!legend || FigureRoom::roleOf(legend) != TextRole::Key || !legend->realVisibility()
                    || FigureRoom::Changes::isHidden(legend))
                    continue;
                for (int j = 0; j < legend->itemCount(); ++j)
                    if (auto *entry = qobject_cast<QCPPlottableLegendItem *>(legend->item(j));
                        entry && entry->plottable() && entry->plottable()->name().endsWith(u"…"_s))
                        cut.append(entry->plottable()->name());
            }
            FigureRoom::restore(plot);
            QStringList problems = keys.problems() + cut;
            // Given up for what its figure keeps first (none now: why-sqrt-d's ratio panel's key,
            // given up for the slide's title and its four panels of norms until the placing steps
            // were climbed again after the ladder's last, stands under its panel). Left-padding's
            // position-effect gave up its nine entries in half a 16:9 slide beside the ids.
            static const QSet<QString> keyless {};
            const QString row = QString::fromLatin1(QTest::currentDataTag()) + u" "_s + request.figures[i]->name();
            const qsizetype given = problems.removeIf([](const QString &problem) {
                return problem.contains(u"is given up while its panel is drawn"_s);
            });
            QVERIFY2(problems.isEmpty(), qPrintable(row + u": "_s + problems.join(u"; "_s)));
            QVERIFY2((given > 0) == keyless.contains(row),
                     qPrintable(row + (given > 0 ? u" gave up a key"_s : u" keeps its keys"_s)));
        }
    }

    // A bottom axis's label stands along its tick labels only to give its panel room: not where a
    // panel in its margin group below draws its label under its axis, so that the row below holds
    // a label anyway (FigureRoom::keepScalesReadable: dropout-on-sum's lower heatmaps read
    // "0  5  column j" beside the first's five numbers over "column j").
    static void labelsAlongOnlyForRoom(const LessonPage::Request &request, const LessonPage::Page &page)
    {
        for (qsizetype i = 0; i < request.figures.size(); ++i) {
            const QCustomPlot &plot = *page.builds[std::size_t(i)]->plot();
            const auto drawn = [](const QCPAxisRect *rect) {
                return rect->realVisibility() && !FigureRoom::Changes::isHidden(rect)
                    && !dynamic_cast<const QCPColorScaleAxisRectPrivate *>(rect);
            };
            for (QCPAxisRect *rect : plot.axisRects()) {
                const QCPAxis *axis = rect->axis(QCPAxis::atBottom);
                QCPMarginGroup *group = FigureRoom::marginGroupOf(*rect, QCP::msBottom);
                if (!drawn(rect) || !axis || !axis->visible() || !axis->label().isEmpty() || !group
                    || axis->property(FigureRoom::kFoldedProperty).toString().isEmpty())
                    continue;
                for (QCPAxisRect *other : plot.axisRects()) {
                    const QCPAxis *below = other->axis(QCPAxis::atBottom);
                    QVERIFY2(other == rect || !drawn(other) || FigureRoom::marginGroupOf(*other, QCP::msBottom) != group
                                 || !below || !below->visible() || below->label().isEmpty()
                                 || below->label().contains(u'\n'),
                             qPrintable(u"%1: '%2' along its ticks beside '%3' under its axis"_s.arg(
                                 request.figures[i]->name(), axis->property(FigureRoom::kFoldedProperty).toString(),
                                 below->label())));
                }
            }
        }
    }

private slots:
    // Words that point at a panel ("the fraction chart", "the lower panel", "(left)") come with
    // the panels they mean, each of a figure the program draws.
    void aTextThatRefersToAPanelSaysWhich()
    {
        static const QRegularExpression pointing(
            u"\\b[Tt]he ([\\w'’-]+ )?(charts?|tables?|panels?|plots?|curves?|circle|heatmaps?)\\b"
            "|\\b(upper|lower) row\\b|\\((left|right)\\)"_s);
        int referring = 0;
        for (const Lesson &lesson : Lessons::all()) {
            for (const auto &item : lesson.text.items + QList<LessonText::Item> {lesson.text.note}) {
                for (const LessonText::Alternative &alternative : item) {
                    const auto match = pointing.match(LessonText::plain(alternative.text));
                    QVERIFY2(!match.hasMatch() || !alternative.panels.isEmpty(),
                             qPrintable(u"%1: \"%2\" names no panel: %3"_s.arg(lesson.name, match.captured(0),
                                                                               alternative.text)));
                    referring += match.hasMatch() ? 1 : 0;
                    for (const QString &panel : alternative.panels)
                        QVERIFY2(FigureRegistry::find(panel.section(u": "_s, 0, 0)),
                                 qPrintable(u"%1: no figure %2"_s.arg(lesson.name, panel)));
                }
            }
        }
        QVERIFY(referring >= 20); // the shipped lessons refer to their panels
    }

    // And Whisper's, where its text quotes a number a panel draws: left-padding quoted ‖ΔPE‖ = 36.6
    // and its slide gave up the panel that draws it.
    void aSlideDrawsWhatItsTextRefersTo_data()
    {
        lessonRows({u"transformer-big"_s, u"qwen3-8b"_s, u"mpt-7b"_s});
        const QStringList whisper {u"--preset"_s, u"whisper-large-v3"_s};
        for (const Lesson &lesson : Lessons::all()) {
            const auto read = readFor(lesson, whisper);
            if (!read)
                continue;
            const QStringList keys = lesson.explain(read->model).keys;
            if (std::any_of(keys.begin(), keys.end(), [](const QString &key) {
                    return LessonNumbers::figureOf(key, LayerLessonNumbers::entries()).contains(u": "_s);
                }))
                QTest::newRow(qPrintable(lesson.name + u" whisper-large-v3"_s)) << lesson.name << whisper;
        }
    }

    void aSlideDrawsWhatItsTextRefersTo()
    {
        QFETCH(QString, lesson);
        QFETCH(QStringList, model);
        const Lesson &chosen = *Lessons::find(lesson);
        const auto read = readFor(chosen, model);
        if (!read)
            QSKIP("the lesson does not apply to this model");
        const LessonPage::Request request = pageOf(chosen, *read);
        const auto page = LessonPage::build(request, nullptr);
        QVERIFY(page);
        QStringList onPage;
        for (const FigureDescriptor *figure : request.figures)
            onPage.append(figure->name());
        const LessonText::Rendered text = chosen.explain(read->model);
        // The views it names and the figures of the panels it refers to: on the page, unless drawn
        // for other families only.
        for (const QString &name : chosen.slideFigures(read->model)) {
            const FigureDescriptor *figure = FigureRegistry::find(name);
            QVERIFY2(figure, qPrintable(name));
            if (figure->model().appliesTo(read->result.params))
                QVERIFY2(onPage.contains(name),
                         qPrintable(u"%1 is not on the page: %2"_s.arg(name, onPage.join(u", "_s))));
        }
        int checked = 0;
        for (qsizetype i = 0; i < request.figures.size(); ++i) {
            const FigureBuild &built = *page->builds[std::size_t(i)];
            QVERIFY2(!built.error(), qPrintable(built.error() ? built.error()->message : QString()));
            for (const QString &words : request.styles[i].keptPanels) {
                QVERIFY2(!KeptPanels::named(built.plot(), words).isEmpty(),
                         qPrintable(u"%1 has no panel named \"%2\""_s.arg(onPage[i], words)));
                QVERIFY2(KeptPanels::drawn(built.plot(), words),
                         qPrintable(u"%1 gave up its panel \"%2\", which the text refers to: %3"_s.arg(
                             onPage[i], words, LessonText::plain(text.html))));
                ++checked;
            }
        }
        // The panels the text refers to and those that draw the numbers it quotes (their entries'
        // figure, "position-effect: the difference"), each of a figure on the page: all of them checked.
        QStringList panels = text.panels;
        for (const QString &key : text.keys)
            panels.append(LessonNumbers::figureOf(key, LayerLessonNumbers::entries()));
        QSet<QString> referred;
        for (const QString &panel : std::as_const(panels))
            if (panel.contains(u": "_s) && onPage.contains(panel.section(u": "_s, 0, 0)))
                referred.insert(panel);
        QCOMPARE(checked, referred.size());
    }

    // Packing's two tables of distances need the slide's width: on the usual grid (cells nearest
    // 3:2, even) its main figure gives one up or draws them smaller than on the layout chosen,
    // another grid or the main figure given more of the page (LessonPage::kLeads).
    void theGridLeavesTheMainFigureTheMost()
    {
        const Lesson &packing = *Lessons::find(u"packing"_s);
        const auto read = readFor(packing, {});
        QVERIFY(read);
        LessonPage::Request request = pageOf(packing, *read);
        QVERIFY(request.figures.size() >= 2);
        // Without the panels its text refers to kept (those the figure keeps on any grid).
        for (FigureStyle &style : request.styles)
            style.keptPanels.clear();
        const LessonPage::Layout usual {FigurePage::grid(int(request.figures.size()), slide().layout), 1.0};
        const auto chosen = LessonPage::layout(request, nullptr);
        QVERIFY(chosen);
        // Built alone on the layouts, the main figure draws as many panels on the chosen one as on
        // any even grid, its smallest plot as large (a panel's name that goes into two lines,
        // EqualPanels, no longer holds the usual grid's plots narrower).
        const auto mainOn = [&](const LessonPage::Layout &layout) {
            const QList<QRect> cells
                = FigurePage::cells(int(request.figures.size()), slide().layout, layout.shape, layout.lead);
            FigureBuild main(*request.figures[0], request.engine, request.states[0], request.styles[0],
                             FigurePage::cellSize(slide(), cells[0]));
            main.run(1);
            const QList<QCPAxisRect *> rects = FigureBuild::plotRects(*main.plot());
            int smallest = std::numeric_limits<int>::max();
            for (const QCPAxisRect *rect : rects)
                smallest = std::min({smallest, rect->width(), rect->height()});
            return std::pair {main.error() ? -1 : rects.size(), smallest};
        };
        for (const QSize &shape : FigurePage::grids(int(request.figures.size())))
            QVERIFY2(mainOn(*chosen) >= mainOn({shape, 1.0}),
                     qPrintable(u"%1x%2"_s.arg(shape.width()).arg(shape.height())));
        // A page built is on that layout.
        const auto page = LessonPage::build(request, nullptr);
        QVERIFY(page);
        QCOMPARE(page->shape, chosen->shape);
        QCOMPARE(page->lead, chosen->lead);
        request.chooseGrid = false;
        const auto unchosen = LessonPage::layout(request, nullptr);
        QVERIFY(unchosen);
        QCOMPARE(unchosen->shape, usual.shape);
        QCOMPARE(unchosen->lead, 1.0);
    }

    // A lesson's slide as posenc export --lesson NAME builds it, built once a row and read for what
    // the four checks above ask of it, each for the models it names (the lesson's own, then those
    // its slides were found wanting for), the one that undoes the room steps last.
    void aSlideFitsItsPanelsTitleAndNumbers_data()
    {
        const QStringList panels {u"transformer-big"_s, u"qwen2-5-7b"_s, u"llama-4-scout"_s};
        const QStringList title {u"phi-4-mini"_s, u"llama-4-scout"_s};
        const QStringList numbers {u"gpt-oss-20b"_s, u"deepseek-v3"_s, u"llama-4-scout"_s};
        const QStringList clause {u"deepseek-v3"_s, u"mae-vit-b-16"_s};
        QStringList presets = panels;
        for (const QString &preset : title + numbers + clause)
            if (!presets.contains(preset))
                presets.append(preset);
        QTest::addColumn<QString>("lesson");
        QTest::addColumn<QStringList>("model");
        QTest::addColumn<bool>("checkPanels");
        QTest::addColumn<bool>("checkTitle");
        QTest::addColumn<bool>("checkNumbers");
        QTest::addColumn<bool>("checkClauses");
        for (const Lesson &lesson : Lessons::all()) {
            QTest::newRow(qPrintable(lesson.name)) << lesson.name << QStringList() << true << true << true << true;
            for (const QString &preset : presets)
                QTest::newRow(qPrintable(lesson.name + u" "_s + preset))
                    << lesson.name << QStringList {u"--preset"_s, preset} << panels.contains(preset)
                    << title.contains(preset) << numbers.contains(preset) << clause.contains(preset);
        }
    }

    void aSlideFitsItsPanelsTitleAndNumbers()
    {
        QFETCH(QString, lesson);
        QFETCH(QStringList, model);
        QFETCH(bool, checkPanels);
        QFETCH(bool, checkTitle);
        QFETCH(bool, checkNumbers);
        QFETCH(bool, checkClauses);
        const Lesson &chosen = *Lessons::find(lesson);
        const auto read = readFor(chosen, model);
        if (!read)
            QSKIP("the lesson does not apply to this model");
        const LessonPage::Request request = pageOf(chosen, *read, false);
        const auto page = LessonPage::build(request, nullptr);
        QVERIFY(page);
        if (checkTitle)
            keepsItsTitle(request, *page);
        if (checkNumbers && !QTest::currentTestFailed())
            axesKeepTwoNumbers(request, *page);
        if (checkClauses && !QTest::currentTestFailed())
            cutsNoClause(request, *page);
        if (!QTest::currentTestFailed())
            rowsReadAlike(request, *page);
        if (checkPanels && !QTest::currentTestFailed())
            givesUpAPanelOnlyToFit(request, *page);
    }

    // Every lesson's 4:3 slide (25.4 x 19.05 cm) for its own model and one other reads its rows
    // alike: dropout-on-sum's five heatmaps' titles wrapped in one to three lines there.
    void aSlideAt4To3ReadsItsRowsAlike_data()
    {
        QTest::addColumn<QString>("lesson");
        QTest::addColumn<QStringList>("model");
        const QStringList others {u"mae-vit-b-16"_s, u"annotated-transformer"_s, u"llama-4-scout"_s, u"t5-base"_s,
                                  u"gemma-3-4b"_s, u"qwen3-vl-8b"_s, u"bloom-560m"_s};
        for (const Lesson &lesson : Lessons::all()) {
            QTest::newRow(qPrintable(lesson.name)) << lesson.name << QStringList();
            // The first of `others` the lesson applies to.
            for (const QString &preset : others)
                if (readFor(lesson, {u"--preset"_s, preset})) {
                    QTest::newRow(qPrintable(lesson.name + u" "_s + preset))
                        << lesson.name << QStringList {u"--preset"_s, preset};
                    break;
                }
        }
    }

    void aSlideAt4To3ReadsItsRowsAlike()
    {
        QFETCH(QString, lesson);
        QFETCH(QStringList, model);
        const Lesson &chosen = *Lessons::find(lesson);
        const auto read = readFor(chosen, model);
        QVERIFY(read);
        static const FigureSize fourToThree = FigureSize::fromInches(QSizeF(25.4 / 2.54, 19.05 / 2.54), 150.0);
        const LessonPage::Request request = pageOf(chosen, *read, false, fourToThree);
        const auto page = LessonPage::build(request, nullptr);
        QVERIFY(page);
        rowsReadAlike(request, *page);
    }

    // Every lesson's own slide, and for three models of other families, keeps its keys whole and
    // sets a label along its ticks only where that gives room.
    void aSlideKeepsItsKeysWhole_data()
    {
        lessonRows({u"llama-4-scout"_s, u"bloom-560m"_s, u"qwen2-5-vl-7b"_s});
    }

    void aSlideKeepsItsKeysWhole()
    {
        QFETCH(QString, lesson);
        QFETCH(QStringList, model);
        const Lesson &chosen = *Lessons::find(lesson);
        const auto read = readFor(chosen, model);
        if (!read)
            QSKIP("the lesson does not apply to this model");
        const LessonPage::Request request = pageOf(chosen, *read, false);
        const auto page = LessonPage::build(request, nullptr);
        QVERIFY(page);
        labelsAlongOnlyForRoom(request, *page);
        if (!QTest::currentTestFailed())
            keepsItsKeysWhole(request, *page);
    }
};

POSENC_TEST_MAIN(TestLessonPanels)
} // namespace tst_lessonpanels
#include "tst_lessonpanels.moc"
