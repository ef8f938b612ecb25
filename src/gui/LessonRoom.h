#pragma once

#include <QObject>

class QAction;
class QDockWidget;
class QMainWindow;
class QSettings;

namespace posenc {

class LessonPanel;
class ParameterDock;

// How a lesson shares the window with its figure: the figure gets the room. When a lesson opens
// on a window where the figure would have less than kFigureShare of its width beside the
// parameters and the lesson's text, the parameter panel folds to its strip (one click opens it
// again), and comes back as it was when the lessons end. The lesson's text sits beside the
// figure, as wide as its code needs and no wider than a comfortable line unless the text needs
// more to read whole, or below the figure (Lessons > Lesson text below the figure, remembered in
// the settings).
class LessonRoom : public QObject
{
    Q_OBJECT

public:
    // The least share of the window's width a lesson's figure is given.
    static constexpr double kFigureShare = 0.6;

    struct Parts
    {
        QMainWindow *window = nullptr;
        QDockWidget *dock = nullptr; // the lesson's
        LessonPanel *panel = nullptr;
        ParameterDock *parameters = nullptr;
    };

    // `settings` (may be null) keeps where the lesson's text sits.
    LessonRoom(Parts parts, QSettings *settings, QObject *parent = nullptr);

    // Lessons > Lesson text below the figure: checked while it sits there.
    QAction *textBelowAction() const { return m_textBelowAction; }
    bool isTextBelow() const { return m_textBelow; }
    // Puts the lesson's text below the figure, or beside it.
    void setTextBelow(bool below);

    // A lesson was shown: the first of a run of lessons folds the parameters where the figure
    // needs their room; every one sizes the text's dock.
    void lessonShown();
    // The lessons ended: the parameter panel is as it was before the first.
    void lessonsEnded();

    static constexpr char16_t kTextBelowKey[] = u"lessons/textBelow";

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    // The width of the text beside the figure, or the height below it, for this window.
    int textExtent() const;
    // The lesson panel's height in the dock beside the figure.
    int panelHeight() const;
    void placeDock();

    Parts m_parts;
    QSettings *m_settings;
    QAction *m_textBelowAction;
    bool m_textBelow = false;
    bool m_inLessons = false;
    bool m_foldedBefore = false; // the parameter panel before the first lesson
    int m_placedHeight = -1; // the dock's height when its text's width was chosen
    bool m_placingAgain = false; // a placing on the laid-out dock is queued
    bool m_placeForText = false; // placed again when the panel shows the text of the lesson shown
};

} // namespace posenc
