#pragma once

#include <QDockWidget>

class QAbstractButton;
class QAction;
class QScrollArea;

namespace posenc {

class ControlPanel;

// The window's Parameters dock: the control panel in a scroll area that reserves its scroll
// bar's width, so that no field is cut at its right edge whatever the family shows. It folds to
// a narrow strip that gives the figures its room, and opens again with one click on the strip
// (or View > Fold the parameters).
class ParameterDock : public QDockWidget
{
    Q_OBJECT

public:
    ParameterDock(ControlPanel *controls, QWidget *parent = nullptr);

    QScrollArea *scrollArea() const { return m_scroll; }
    // The strip the folded panel shows: one click opens it.
    QAbstractButton *strip() const { return m_strip; }
    // View > Fold the parameters: checked while folded.
    QAction *foldAction() const { return m_foldAction; }
    bool isFolded() const { return m_folded; }
    // Folds the panel to its strip, or opens it at the width it had.
    void setFolded(bool folded);
    // The width of the dock when folded.
    int stripWidth() const;

signals:
    void foldedChanged(bool folded);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    // The panel's least width: the controls' own, the scroll bar's beside them.
    void reserveWidth();

    ControlPanel *m_controls;
    QScrollArea *m_scroll;
    QAbstractButton *m_strip;
    QWidget *m_title;
    QWidget *m_noTitle;
    QAction *m_foldAction;
    bool m_folded = false;
    int m_openWidth = 0; // the width to open at again
};

} // namespace posenc
