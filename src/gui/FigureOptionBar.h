#pragma once

#include "render/FigureDescriptor.h"
#include "render/data/FigureText.h"

#include <QHash>
#include <QWidget>

class QComboBox;
class QHBoxLayout;
class QLayout;
class QVBoxLayout;
class QLabel;

namespace posenc {

// The title bar of a view: the figure it shows (a chooser of every registered figure, or its
// title), a control for each option the figure shows in the window, made from its
// FigureOption (a list for a choice, a field for text, a box for a switch), and the maximise
// button. It edits nothing itself: it says what the user chose.
class FigureOptionBar : public QWidget
{
    Q_OBJECT

public:
    // `chooser`: whether the figure can be changed here.
    explicit FigureOptionBar(bool chooser, QWidget *parent = nullptr);

    // Controls for `figure`'s options, showing `state` (defaults for these parameters where unset).
    void setFigure(const FigureDescriptor &figure, const FigureState &state, const Params &params);
    // Shows `state` and the defaults for `params` in the controls, emitting nothing.
    void showState(const FigureState &state, const Params &params);
    // Marks the control of `key` as refused with `reason` beside it, or clears it (empty reason).
    void markOption(const QString &key, const QString &reason);
    // The figure's note of the screen (FigurePlot::screenNote) at the bar's end, in the longest of
    // its forms (FigureText::kLengthVariants) that holds whole in the room the row leaves it, or
    // in a row of its own below where none holds there: it is the view's, never the figure's, so
    // no export shows it. note() is its whole form.
    void setNote(const QString &note);
    QString note() const { return m_noteText.section(FigureText::kLengthVariants, 0, 0); }

signals:
    void figureChosen(const QString &name);
    void optionEdited(const QString &key, const QString &text);
    void maximizeRequested();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    bool event(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void clearControls();
    // Puts the option controls below the chooser, in as many rows as they need, when one row
    // cannot hold the chooser, the controls and the maximise button each at its size hint (a
    // quarter view of the smallest screen), back beside the chooser when it can; and the note
    // below them where the top row leaves none of its forms room.
    void placeControls();
    // The width the top row leaves the note, each other widget in it at its size hint.
    int noteRoomInTopRow() const;
    void showNote();
    QWidget *makeControl(const FigureOption &option);

    QComboBox *m_chooser = nullptr;
    QLabel *m_title;
    QVBoxLayout *m_rows = nullptr; // the top row, then the controls where they do not fit in it
    QHBoxLayout *m_top; // the chooser or title, the controls where they fit, the note, the button
    QWidget *m_controlsBox; // holding m_controls, moved between the two places
    QLayout *m_controls; // the controls in as many rows as their width needs
    QWidget *m_maximize;
    QLabel *m_refusal; // beside the controls: why the last edit was refused
    QLabel *m_note;
    QWidget *m_noteRoom; // the note's place in the rows, which it fills
    QString m_noteText;
    QHash<QString, QWidget *> m_controlOf;
    // Choices whose labels follow the parameters (FigureOption::choiceLabelFor), by key.
    QHash<QString, std::function<QString(const QString &, const Params &)>> m_labelFor;
    QHash<QString, std::function<bool(const QString &, const Params &)>> m_availableFor;
    const FigureDescriptor *m_figure = nullptr;
};

} // namespace posenc
