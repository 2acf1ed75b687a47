"""The tests of paper 001 (collected by pytest: ``testpaths = tests theorycheck``)."""
