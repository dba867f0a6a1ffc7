"""Gradio UI and the pure functions that render answers, citations and graph paths."""
