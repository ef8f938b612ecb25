// A session's view, typed (SessionView): the dashboard's layout, each view's figure and state and
// the maximised view read from the JSON written here, the forms of older sessions, what is not
// sound left out, and writing it back over the rest of "view", which other parts own.
#include "io/SessionView.h"
#include "support/TestMain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

namespace tst_sessionview {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

QJsonObject json(const QByteArray &text)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(text, &error);
    if (error.error != QJsonParseError::NoError || !document.isObject())
        qFatal("bad JSON in the test: %s", text.constData());
    return document.object();
}

} // namespace

class TestSessionView : public QObject
{
    Q_OBJECT

private slots:
    void readsTheDashboard();
    void readsTheFormsOfOlderSessions();
    void leavesOutWhatIsNotSound();
    void writesOverTheRestOfTheView();
    void whatIsWrittenReadsBack();
};

void TestSessionView::readsTheDashboard()
{
    const SessionView view = SessionView::read(json(R"({"layout": "1x2", "maximized": 1, "tab": 1,
        "views": [{"figure": "heatmap", "quantity": "input", "columns": [3.5, 20.5]}, {"figure": "curves"}]})"));
    QCOMPARE(view.layout, std::optional(u"1x2"_s));
    QCOMPARE(view.maximized, 1);
    QVERIFY(view.views);
    QCOMPARE(view.views->size(), 2);
    QCOMPARE(view.views->at(0).name, u"heatmap"_s);
    // The state is the figure's alone: its options and ranges, without its name.
    QCOMPARE(view.views->at(0).state, json(R"({"quantity": "input", "columns": [3.5, 20.5]})"));
    QCOMPARE(view.views->at(1).name, u"curves"_s);
    QVERIFY(view.views->at(1).state.isEmpty());
    QCOMPARE(view.figure(1)->name, u"curves"_s);
    QVERIFY(!view.figure(2));
    QVERIFY(!view.figure(-1));
    QVERIFY(view.byFigure.isEmpty());
}

void TestSessionView::readsTheFormsOfOlderSessions()
{
    // Before layouts: views without a layout (the window shows them as 2x2).
    const SessionView grid = SessionView::read(json(R"({"views": [{"figure": "dropout"}]})"));
    QVERIFY(!grid.layout);
    QCOMPARE(grid.views->size(), 1);
    QCOMPARE(grid.maximized, -1);
    // Before views could show any figure: one state per figure, and no views.
    const SessionView byFigure
        = SessionView::read(json(R"({"heatmap": {"quantity": "mask"}, "curves": {"columns": "0,1"}, "maximized": 2})"));
    QVERIFY(!byFigure.views);
    QCOMPARE(byFigure.maximized, 2);
    QCOMPARE(byFigure.byFigure.size(), 2);
    QCOMPARE(byFigure.byFigure.value(u"heatmap"_s), json(R"({"quantity": "mask"})"));
    QCOMPARE(byFigure.byFigure.value(u"curves"_s), json(R"({"columns": "0,1"})"));
}

void TestSessionView::leavesOutWhatIsNotSound()
{
    const SessionView view
        = SessionView::read(json(R"({"layout": 3, "views": [7, {"figure": 2, "quantity": "pe"}], "maximized": "1"})"));
    // A layout that is not text is there but names none.
    QCOMPARE(view.layout, std::optional(QString()));
    QCOMPARE(view.maximized, -1);
    QCOMPARE(view.views->size(), 2);
    QVERIFY(view.views->at(0).name.isEmpty());
    QVERIFY(view.views->at(0).state.isEmpty());
    QVERIFY(view.views->at(1).name.isEmpty());
    QCOMPARE(view.views->at(1).state, json(R"({"quantity": "pe"})"));
    QVERIFY(!SessionView::read(json(R"({"views": {"figure": "heatmap"}})")).views);
    QCOMPARE(SessionView::read(QJsonObject()), SessionView());
}

void TestSessionView::writesOverTheRestOfTheView()
{
    SessionView view;
    view.layout = u"2x1"_s;
    view.views = QList<SessionView::Figure> {{u"heatmap"_s, json(R"({"quantity": "output"})")}, {u"similarity"_s, {}}};
    view.maximized = 0;
    const QJsonObject others = json(R"({"tab": 1, "positionTable": true, "layout": "1x1", "maximized": 3})");
    QCOMPARE(view.write(others), json(R"({"tab": 1, "positionTable": true, "layout": "2x1", "maximized": 0,
        "views": [{"figure": "heatmap", "quantity": "output"}, {"figure": "similarity"}]})"));
    // No layout and no views are written as none.
    QCOMPARE(SessionView().write(), json(R"({"maximized": -1})"));
}

void TestSessionView::whatIsWrittenReadsBack()
{
    for (const QByteArray &text :
         {QByteArray(R"({"layout": "2x2", "maximized": -1, "views": [{"figure": "curves", "dims": "0,3",
                        "positions": [0, 99.5]}, {"figure": "heatmap"}, {"figure": "magnitudes"}, {"figure": "dropout"}]})"),
          QByteArray(R"({"maximized": 1, "heatmap": {"quantity": "input"}})")}) {
        const QJsonObject saved = json(text);
        QCOMPARE(SessionView::read(saved).write(), saved);
        QCOMPARE(SessionView::read(SessionView::read(saved).write()), SessionView::read(saved));
    }
}

POSENC_TEST_GUILESS_MAIN(TestSessionView)
} // namespace tst_sessionview
#include "tst_sessionview.moc"
