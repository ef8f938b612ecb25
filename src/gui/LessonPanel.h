#pragma once

#include "core/LessonModel.h"
#include "io/Lesson.h"

#include <QWidget>

#include <optional>

class QLabel;
class QPushButton;
class QScrollArea;
class QTimer;
class QToolButton;

namespace posenc {

class ComputeScheduler;

// The side panel of a lesson: its title, the question it answers, the code the question is
// about (when there is one) and the explanation for the model shown (Lesson::explain), or the line
// that says what the lesson needs where the model is not one it applies to. It edits nothing: its
// buttons say what the user asked for. The text scrolls; the buttons are always in view.
//
// The text (the explanation, the refusal, the code) is computed off the GUI thread, as a figure's
// data is (docs/ARCHITECTURE.md, Background work): its numbers grow with the parameters (a lesson
// at d_model 2^20 took the GUI thread a second). Until it arrives the panel shows what it showed:
// a new lesson's head and text replace the last lesson's together, so that no blank or half text
// flashes where the text takes a few milliseconds; where it takes longer (kSlowMs) the new
// lesson's head shows with a line that says the text is being computed, or the last model's text
// is greyed. A newer request drops the older's result.
class LessonPanel : public QWidget
{
    Q_OBJECT

public:
    explicit LessonPanel(QWidget *parent = nullptr);
    ~LessonPanel() override;

    void showLesson(const Lesson &lesson, const LessonModel &model);
    // Shows no lesson.
    void clear();
    // The explanation and the code for `model`.
    void setModel(const LessonModel &model);
    const std::optional<Lesson> &lesson() const { return m_lesson; }
    // The explanation as shown, without its markup: the one for the lesson and model last given
    // once isTextReady().
    QString explanationText() const;
    // Whether the text shown is the one for the lesson and model last given (textShown was sent).
    bool isTextReady() const { return !m_waiting; }
    // How long the last text stays as it is while the new one is computed.
    static constexpr int kSlowMs = 150;
    void setNeighbours(bool hasPrevious, bool hasNext);
    // Lays the panel out for a place below the figure (the explanation beside the code, wide
    // and low) or beside it (one column).
    void setTextBelow(bool below);
    bool isTextBelow() const { return m_below; }
    // The width the lesson's code takes with its lines whole (0 without code): a narrower panel
    // scrolls the code sideways rather than cut it or take the figure's room.
    int codeWidth() const;
    // Beside the figure: whether the panel, `width` wide and `height` high, shows its whole text
    // with no scrolling, the code box at its least (kLeastCodeLines lines, scrolled past them).
    bool readsWhole(int width, int height) const;
    // The least lines of code the box beside the figure shows before the text scrolls.
    static constexpr int kLeastCodeLines = 6;
    // The gap between the question and what follows it.
    static constexpr int kQuestionGap = 6;

protected:
    void resizeEvent(QResizeEvent *event) override;

signals:
    // The panel's button: the user asks for the text below the figure, or beside it.
    void textBelowRequested(bool below);
    void resetRequested();
    void previousRequested();
    void nextRequested();
    void leaveRequested();
    // The text for the lesson and model last given is shown; `rendered` is its explanation as
    // Lesson::explain(model, true) renders it.
    void textShown(const posenc::LessonText::Rendered &rendered);

private:
    // What the panel shows of a lesson for a model: computed on the scheduler's thread.
    struct Text
    {
        QString code;
        QString html; // the explanation, or the line that says why the lesson does not apply
        LessonText::Rendered rendered;
    };
    static Text compose(const Lesson &lesson, const LessonModel &model);
    void showText(const Text &text);
    void showHead();
    // The text is late (kSlowMs): says so.
    void showWaiting();
    void layOut();
    void showCode(const QString &code);
    // The height left for the text above the buttons in a panel `height` high.
    int textRoom(int height) const;
    // The text's height at a panel `width`, the code box `codeHeight` high, its scroll bar up the
    // side taking its width (`bar`) or not.
    int textHeight(int width, int codeHeight, bool bar = true) const;
    // Beside the figure: the code box as high as the text leaves it in the panel as it is, its
    // lines whole where they fit, kLeastCodeLines at the least; the text's scroll bar shown only
    // where the text at the panel's whole width does not fit.
    void fitCodeBeside();
    void fitCodeHeight();

    std::optional<Lesson> m_lesson;
    QLabel *m_title;
    QLabel *m_question;
    QLabel *m_codeCaption;
    QLabel *m_code;
    QScrollArea *m_codeScroll; // the code, scrolled sideways where its lines are wider than the panel
    QLabel *m_explanation;
    // The text (the title, the question, the code beside the figure, the explanation), scrolled
    // where it is longer than the dock is high; the buttons stay below or beside it, in view.
    QScrollArea *m_textScroll;
    QWidget *m_textPage;
    QPushButton *m_previous;
    QPushButton *m_next;
    QPushButton *m_reset;
    QPushButton *m_leave;
    QToolButton *m_place;
    bool m_below = false;
    ComputeScheduler *m_scheduler;
    QTimer *m_slow; // kSlowMs after a request the text has not answered
    bool m_waiting = false; // a text was asked for and is not shown yet
    bool m_headPending = false; // the title and question shown are the last lesson's
};

} // namespace posenc
